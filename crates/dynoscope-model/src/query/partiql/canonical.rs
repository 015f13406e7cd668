//! The statement a read-only path sends to ExecuteStatement: the user's SELECT spelled again
//! from dynoscope's own tokens, comments dropped, tokens that were apart joined by one space.
//!
//! Why: a guard that judges the user's raw text judges dynoscope's lexer, and DynamoDB runs
//! its own. Where the two disagree (where a comment ends, whether `/* */` is one), raw text can
//! be a SELECT here and an UPDATE there. The re-rendered text has no comment and no whitespace
//! but single spaces, so the only thing left to read is the tokens dynoscope judged; the
//! read-only client refuses any ExecuteStatement whose text is not already in this form.

use super::error::PartiqlError;
use super::lexer::{tokenize, Tok, Token};

fn spell(tok: &Tok) -> String {
    let quoted = |text: &str, quote: char| {
        let doubled: String = [quote, quote].iter().collect();
        format!("{quote}{}{quote}", text.replace(quote, &doubled))
    };
    match tok {
        Tok::Word(w) | Tok::Num(w) => w.clone(),
        Tok::Quoted(q) => quoted(q, '"'),
        Tok::Str(s) => quoted(s, '\''),
        Tok::Param => "?".into(),
        Tok::Star => "*".into(),
        Tok::Comma => ",".into(),
        Tok::Dot => ".".into(),
        Tok::Colon => ":".into(),
        Tok::LParen => "(".into(),
        Tok::RParen => ")".into(),
        Tok::LBracket => "[".into(),
        Tok::RBracket => "]".into(),
        Tok::LBrace => "{".into(),
        Tok::RBrace => "}".into(),
        Tok::LBag => "<<".into(),
        Tok::RBag => ">>".into(),
        Tok::Op(op) => (*op).into(),
        Tok::Minus => "-".into(),
        Tok::Semicolon => ";".into(),
    }
}

fn render(tokens: &[Token]) -> String {
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        // Tokens written apart stay one space apart; adjacent ones stay adjacent (`-5`,
        // `a.b`), which cannot make a comment: `--` and `/*` were lexed as comments already.
        if i > 0 && tokens[i - 1].end != token.col - 1 {
            out.push(' ');
        }
        out.push_str(&spell(&token.tok));
    }
    out
}

/// `text` with its comments dropped and its whitespace made single spaces, checked to read back
/// as exactly the same tokens.
pub fn canonical(text: &str) -> Result<String, PartiqlError> {
    let tokens = tokenize(text)?;
    let out = render(&tokens);
    let again = tokenize(&out)?;
    let same =
        again.len() == tokens.len() && again.iter().zip(&tokens).all(|(a, b)| a.tok == b.tok);
    if !same {
        return Err(PartiqlError::syntax(
            "the statement does not read back the same once its comments are dropped; write it without comments",
        ));
    }
    Ok(out)
}

/// The text a read-only path may send for `text`: one SELECT (a final `;` dropped), in the
/// canonical spelling, or an error naming what it is instead.
pub fn read_statement(text: &str) -> Result<String, PartiqlError> {
    let mut tokens = tokenize(text)?;
    if matches!(
        tokens.last(),
        Some(Token {
            tok: Tok::Semicolon,
            ..
        })
    ) {
        tokens.pop();
    }
    match tokens.first() {
        Some(Token { tok: Tok::Word(w), .. }) if w.eq_ignore_ascii_case("SELECT") => {}
        Some(first) => {
            return Err(PartiqlError::syntax(format!(
                "only a SELECT is sent on a read-only path, and this statement starts with {} once its comments are dropped; writes need --allow-writes and go through the conditional writer",
                first.tok.describe()
            )))
        }
        None => {
            return Err(PartiqlError::syntax(
                "the statement is empty once its comments are dropped; write e.g. SELECT * FROM \"table\" WHERE PK = 'a'",
            ))
        }
    }
    if let Some(semicolon) = tokens.iter().find(|t| t.tok == Tok::Semicolon) {
        return Err(PartiqlError::syntax(format!(
            "';' at column {} starts a second statement; send one SELECT at a time",
            semicolon.col
        )));
    }
    canonical(&render(&tokens))
}

/// Whether `text` is a SELECT already in the form [`read_statement`] gives: what the read-only
/// client checks in the body it is about to sign.
pub fn is_sendable_read(text: &str) -> bool {
    read_statement(text).is_ok_and(|canonical| canonical == text)
}
