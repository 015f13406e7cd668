use super::canonical::{canonical, is_sendable_read, read_statement};
use super::parser::{is_select, parse};
use super::Statement;

/// The statements of the hardening report and their cousins: comment-, whitespace- and
/// case-smuggled writes. Each is a write to DynamoDB, so none may come out as a SELECT.
const SMUGGLED: &[&str] = &[
    "--\rUPDATE \"t\" SET a = 666 WHERE PK = 'x' /*\nSELECT * FROM \"t\" WHERE a IS NULL */",
    "--\rDELETE FROM \"t\" WHERE PK = 'x' /*\nSELECT * FROM \"t\" */",
    "--\r\nInSeRt INTO \"t\" VALUE {'PK': 'x'} /*\nSELECT * FROM \"t\" */",
    "/* SELECT * FROM t */ update \"t\" SET a = 1 WHERE PK = 'x'",
    "/**/DELETE FROM t WHERE PK = 'x'",
    "\u{000B}\u{000C}\tDELETE FROM t WHERE PK = 'x'",
    "-- SELECT\rEXISTS(SELECT * FROM t WHERE PK = 'x')",
    "--x\rBEGIN TRANSACTION",
];

#[test]
fn a_dash_dash_comment_ends_at_cr_as_dynamodb_ends_it() {
    for statement in SMUGGLED {
        assert!(!is_select(statement), "{statement:?}");
        assert!(read_statement(statement).is_err(), "{statement:?}");
        assert!(!is_sendable_read(statement), "{statement:?}");
    }
    assert!(matches!(parse(SMUGGLED[0]), Ok(Statement::Write(verb)) if verb == "UPDATE"));
    assert!(matches!(parse(SMUGGLED[1]), Ok(Statement::Write(verb)) if verb == "DELETE"));
    assert!(matches!(parse(SMUGGLED[2]), Ok(Statement::Write(verb)) if verb == "INSERT"));
}

#[test]
fn block_comments_are_comments_and_never_nest_silently() {
    assert_eq!(
        canonical("SELECT /* all */ * FROM t").unwrap(),
        "SELECT * FROM t"
    );
    let nested = canonical("SELECT * /* a /* b */ */ FROM t").unwrap_err();
    assert!(
        nested.message.contains("another '/*' inside it"),
        "{}",
        nested.message
    );
    let open = canonical("SELECT * FROM t /* never closed").unwrap_err();
    assert!(
        open.message.contains("never closed; add the closing */"),
        "{}",
        open.message
    );
}

#[test]
fn the_sent_text_drops_comments_and_keeps_every_token() {
    let cases = [
        (
            "SELECT * FROM t -- why\nWHERE PK = 'a'",
            "SELECT * FROM t WHERE PK = 'a'",
        ),
        ("select\t*\r\nfrom \"t\"", "select * from \"t\""),
        // Quotes doubled again, and text inside quotes kept as it is, comment markers too.
        (
            "SELECT * FROM \"a\"\"b\" WHERE c = 'it''s -- not /* a comment */'",
            "SELECT * FROM \"a\"\"b\" WHERE c = 'it''s -- not /* a comment */'",
        ),
        // Adjacent tokens stay adjacent; `- -` never becomes a comment.
        (
            "SELECT * FROM t WHERE a=-5 AND b = -/**/-1",
            "SELECT * FROM t WHERE a=-5 AND b = - -1",
        ),
        (
            "SELECT a.b[0] FROM t WHERE c != 1;",
            "SELECT a.b[0] FROM t WHERE c <> 1",
        ),
    ];
    for (raw, sent) in cases {
        assert_eq!(read_statement(raw).unwrap(), sent, "{raw:?}");
        // The sent text is a fixed point: the read-only client lets exactly it through.
        assert!(is_sendable_read(sent), "{sent:?}");
        assert!(!is_sendable_read(raw) || raw == sent, "{raw:?}");
    }
}

#[test]
fn only_one_select_is_sent() {
    let second = read_statement("SELECT * FROM t; DELETE FROM t WHERE PK = 'a'").unwrap_err();
    assert!(
        second.message.contains("starts a second statement"),
        "{}",
        second.message
    );
    let empty = read_statement("-- nothing\r/* at all */").unwrap_err();
    assert!(
        empty
            .message
            .contains("empty once its comments are dropped"),
        "{}",
        empty.message
    );
    let write = read_statement("--\rUPDATE t SET a = 1").unwrap_err();
    assert!(
        write.message.contains("starts with 'UPDATE'"),
        "{}",
        write.message
    );
}
