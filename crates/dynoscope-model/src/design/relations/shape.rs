//! The shape of a key part: what kind of text it is, without its value. `o000042` and
//! `o000017` share a shape, `2026-08-27` has another; an order id found in a sort key is then
//! recognisably an order id even when that order's own collection was never loaded.

/// Each run of letters and digits becomes one character: `9` for digits only, `a` for letters
/// only (either case), `x` for both; every other character is kept. `o000042` → `x`,
/// `2026-08-27` → `9-9-9`, `SHIPPED` → `a`, `PENDING#3` → `a#9`, `a3f9c2e1-0b1d` → `x-x`.
pub fn shape(text: &str) -> String {
    let mut out = String::new();
    // (letters seen, digits seen) in the current run of alphanumerics.
    let mut run: Option<(bool, bool)> = None;
    let close = |out: &mut String, run: &mut Option<(bool, bool)>| {
        if let Some((letters, digits)) = run.take() {
            out.push(match (letters, digits) {
                (true, true) => 'x',
                (true, false) => 'a',
                _ => '9',
            });
        }
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            let (letters, digits) = run.unwrap_or((false, false));
            let digit = c.is_ascii_digit();
            run = Some((letters || !digit, digits || digit));
        } else {
            close(&mut out, &mut run);
            out.push(c);
        }
    }
    close(&mut out, &mut run);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let cases = [
            ("o000042", "x"),
            ("u00017", "x"),
            ("celebrity", "a"),
            ("SHIPPED", "a"),
            ("456", "9"),
            ("2026-08-27", "9-9-9"),
            ("PENDING#3", "a#9"),
            ("a3f9c2e1-0b1d-4c7e", "x-x-x"),
            ("", ""),
            ("é1", "x"),
            ("a b", "a a"),
        ];
        for (text, want) in cases {
            assert_eq!(shape(text), want, "{text:?}");
        }
    }
}
