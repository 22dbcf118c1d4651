//! The text a value takes inside a key template (`USER#{userId}`, `ITEM#{lineNo:03}`): what the
//! derive's compiled templates push, integers zero-padded to the template's width.

use rust_decimal::Decimal;

/// The text a value takes inside a key template (`USER#{userId}`, `ITEM#{lineNo:03}`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written into a key template",
    label = "a key template input must be a string, an integer, a boolean, a decimal, a number, an enum or a timestamp"
)]
pub trait KeyText {
    /// Append the text to `out`; `pad` zero-pads integers to that many digits.
    fn write_key(&self, out: &mut String, pad: Option<usize>);
}

impl KeyText for String {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(self);
    }
}

impl KeyText for str {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(self);
    }
}

impl KeyText for bool {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl KeyText for Decimal {
    fn write_key(&self, out: &mut String, pad: Option<usize>) {
        write_padded(out, &self.normalize().to_string(), pad);
    }
}

impl<T: KeyText + ?Sized> KeyText for &T {
    fn write_key(&self, out: &mut String, pad: Option<usize>) {
        (**self).write_key(out, pad);
    }
}

/// `text` zero-padded to `pad` digits (a negative number keeps its sign in front).
pub(crate) fn write_padded(out: &mut String, text: &str, pad: Option<usize>) {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", text),
    };
    out.push_str(sign);
    if let Some(width) = pad {
        for _ in digits.len()..width {
            out.push('0');
        }
    }
    out.push_str(digits);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_text_pads_integers() {
        let mut out = String::new();
        7u32.write_key(&mut out, Some(3));
        out.push('#');
        (-7i64).write_key(&mut out, Some(3));
        out.push('#');
        true.write_key(&mut out, None);
        assert_eq!(out, "007#-007#true");
    }
}
