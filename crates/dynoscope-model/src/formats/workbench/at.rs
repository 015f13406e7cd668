//! A JSON value with its place in the model file, so every message can say where.

use serde_json::Value;

/// A JSON value and where it sits in the file, for messages.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub path: &'a str,
    pub value: &'a Value,
}

pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> At<'a> {
    pub(super) fn object(&self) -> Result<&'a serde_json::Map<String, Value>, String> {
        self.value.as_object().ok_or_else(|| {
            format!(
                "{} must be an object, got {}",
                self.path,
                kind_of(self.value)
            )
        })
    }

    /// A field that may be absent (or null).
    pub(super) fn get(&self, name: &str) -> Result<Option<&'a Value>, String> {
        Ok(self.object()?.get(name).filter(|v| !v.is_null()))
    }

    pub(super) fn text(&self, name: &str) -> Result<Option<&'a str>, String> {
        match self.get(name)? {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!(
                "{}.{name} must be a string, got {}",
                self.path,
                kind_of(other)
            )),
        }
    }

    pub(super) fn required_text(&self, name: &str) -> Result<&'a str, String> {
        match self.text(name)? {
            Some(s) if !s.is_empty() => Ok(s),
            Some(_) => Err(format!("{}.{name} is empty", self.path)),
            None => Err(format!("{} has no {name}", self.path)),
        }
    }

    pub(super) fn list(&self, name: &str) -> Result<Vec<(String, &'a Value)>, String> {
        match self.get(name)? {
            None => Ok(Vec::new()),
            Some(Value::Array(list)) => Ok(list
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("{}.{name}[{i}]", self.path), v))
                .collect()),
            Some(other) => Err(format!(
                "{}.{name} must be an array, got {}",
                self.path,
                kind_of(other)
            )),
        }
    }
}
