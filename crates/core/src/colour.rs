//! Colours as the legend writes them (`#rrggbb`, or `#rrggbbaa` for a tint laid over a cell) and
//! how different two of them look: the distance in CIELAB (CIE76 ΔE*ab), where about 2 is the
//! least difference an eye notices and 25 or more is a different colour at a glance.

use std::str::FromStr;

/// A colour that did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad colour {text:?}: expected #rrggbb or #rrggbbaa")]
pub struct ColourError {
    pub text: String,
}

/// A colour with its opacity (1 for an opaque colour).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub alpha: f32,
}

impl FromStr for Rgba {
    type Err = ColourError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || ColourError {
            text: text.to_owned(),
        };
        let hex = text.strip_prefix('#').ok_or_else(error)?;
        if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(error());
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| error());
        let alpha = if hex.len() == 8 { byte(6)? } else { 255 };
        Ok(Rgba {
            r: byte(0)?,
            g: byte(2)?,
            b: byte(4)?,
            alpha: f32::from(alpha) / 255.0,
        })
    }
}

impl Rgba {
    /// The colour laid over the opaque colour `below` at its opacity: what the eye sees.
    pub fn over(self, below: Rgba) -> Rgba {
        let mix = |top: u8, under: u8| {
            (self.alpha * f32::from(top) + (1.0 - self.alpha) * f32::from(under)).round() as u8
        };
        Rgba {
            r: mix(self.r, below.r),
            g: mix(self.g, below.g),
            b: mix(self.b, below.b),
            alpha: 1.0,
        }
    }

    /// The colour without its transparency.
    pub fn opaque(self) -> Rgba {
        Rgba { alpha: 1.0, ..self }
    }

    /// The colour in CIELAB (D65 white): lightness and the two colour axes.
    pub fn lab(self) -> [f32; 3] {
        let linear = |c: u8| {
            let c = f32::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (linear(self.r), linear(self.g), linear(self.b));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f32| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// How different the two colours look (CIE76 ΔE*ab between their opaque colours).
    pub fn distance(self, other: Rgba) -> f32 {
        let (a, b) = (self.lab(), other.lab());
        a.iter()
            .zip(b)
            .map(|(p, q)| (p - q) * (p - q))
            .sum::<f32>()
            .sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(text: &str) -> Rgba {
        text.parse().expect(text)
    }

    #[test]
    fn colours_parse_with_and_without_opacity() {
        assert_eq!(
            rgba("#ff8000"),
            Rgba {
                r: 255,
                g: 128,
                b: 0,
                alpha: 1.0
            }
        );
        assert_eq!(rgba("#00000080").alpha, 128.0 / 255.0);
        for bad in [
            "",
            "ff8000",
            "#ff80",
            "#ff80001",
            "#gg8000",
            "#ff8000ff00",
            "#ÿÿÿ",
        ] {
            assert_eq!(bad.parse::<Rgba>(), Err(ColourError { text: bad.into() }));
        }
    }

    #[test]
    fn lab_and_distance_match_known_values() {
        let [l, a, b] = rgba("#ffffff").lab();
        assert!((l - 100.0).abs() < 0.05 && a.abs() < 0.05 && b.abs() < 0.05);
        let [l, a, b] = rgba("#ff0000").lab();
        // sRGB red is L 53.24, a 80.09, b 67.20.
        assert!((l - 53.24).abs() < 0.1 && (a - 80.09).abs() < 0.2 && (b - 67.20).abs() < 0.2);
        assert!((rgba("#000000").distance(rgba("#ffffff")) - 100.0).abs() < 0.05);
        assert_eq!(rgba("#123456").distance(rgba("#123456")), 0.0);
    }

    #[test]
    fn a_tint_is_mixed_with_what_lies_below_it() {
        let half_black = rgba("#00000080");
        assert_eq!(half_black.over(rgba("#ffffff")), rgba("#7f7f7f"));
        assert_eq!(rgba("#336699").over(rgba("#ffffff")), rgba("#336699"));
        assert_eq!(half_black.opaque(), rgba("#000000"));
    }
}
