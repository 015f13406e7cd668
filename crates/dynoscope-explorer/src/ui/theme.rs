//! Colours and styles. Entity kinds get a stable colour from a fixed palette.

use ratatui::style::{Color, Modifier, Style};

use crate::model::design::entity::kind_color_index;

const KIND_PALETTE: [Color; 10] = [
    Color::Cyan,
    Color::Green,
    Color::Yellow,
    Color::Magenta,
    Color::Blue,
    Color::LightRed,
    Color::LightGreen,
    Color::LightCyan,
    Color::LightMagenta,
    Color::LightBlue,
];

pub fn kind_color(kind: &str) -> Color {
    KIND_PALETTE[kind_color_index(kind, KIND_PALETTE.len())]
}

pub fn kind_style(kind: &str) -> Style {
    Style::new()
        .fg(kind_color(kind))
        .add_modifier(Modifier::BOLD)
}

pub fn border(focused: bool) -> Style {
    if focused {
        Style::new().fg(Color::Cyan)
    } else {
        Style::new().fg(Color::DarkGray)
    }
}

pub fn selected() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

pub fn header() -> Style {
    Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}

pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn error() -> Style {
    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
}

pub fn warning() -> Style {
    Style::new().fg(Color::Yellow)
}

/// Pages where a FilterExpression discarded most of what was read.
pub fn filter_heavy() -> Style {
    Style::new().fg(Color::Magenta)
}

/// Marked items and their count.
pub fn marked() -> Style {
    Style::new()
        .fg(Color::LightMagenta)
        .add_modifier(Modifier::BOLD)
}

/// The title bar's mark that this session may write: the warning colour, inverted.
pub fn writes_enabled() -> Style {
    Style::new()
        .fg(Color::Black)
        .bg(Color::Yellow)
        .add_modifier(Modifier::BOLD)
}

/// The title bar's mark that an export was read short of its manifest: the error colour,
/// inverted.
pub fn incomplete() -> Style {
    Style::new()
        .fg(Color::White)
        .bg(Color::Red)
        .add_modifier(Modifier::BOLD)
}

pub fn title() -> Style {
    Style::new().fg(Color::Black).bg(Color::Cyan)
}

pub mod json {
    use ratatui::style::{Color, Style};

    pub fn key() -> Style {
        Style::new().fg(Color::Cyan)
    }
    pub fn string() -> Style {
        Style::new().fg(Color::Green)
    }
    pub fn number() -> Style {
        Style::new().fg(Color::Yellow)
    }
    pub fn literal() -> Style {
        Style::new().fg(Color::Magenta)
    }
    pub fn type_tag() -> Style {
        Style::new().fg(Color::DarkGray)
    }
}
