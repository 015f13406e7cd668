//! The headless commands' error lines in the words of the tools' arguments: an agent calls
//! `query` with `sk_begins_with`, not `--sk-begins`.

/// Flag spellings in the shared validation's messages, and the argument each is here.
const FLAGS: &[(&str, &str)] = &[
    ("(see --explain)", "(see the explain tool)"),
    ("--allow-scan", "allow_scan: true"),
    ("--parameters", "parameters"),
    ("--sk-between", "sk_between"),
    ("--sk-begins", "sk_begins_with"),
    ("--sk-eq", "sk_eq"),
    ("--sk-lt", "sk_lt"),
    ("--sk-le", "sk_le"),
    ("--sk-gt", "sk_gt"),
    ("--sk-ge", "sk_ge"),
    ("--projection", "projection"),
    ("--consistent", "consistent"),
    ("--filter", "filter"),
    ("--values", "values"),
    ("--names", "names"),
    ("--index", "index"),
    ("--limit", "limit"),
    ("--desc", "descending"),
    ("--pk", "pk"),
];

pub fn agent_words(message: &str) -> String {
    let mut out = message.to_string();
    for (flag, arg) in FLAGS {
        out = out.replace(flag, arg);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn flags_become_argument_names() {
        assert_eq!(
            super::agent_words("--sk-begins needs a sort key; add --allow-scan"),
            "sk_begins_with needs a sort key; add allow_scan: true"
        );
    }
}
