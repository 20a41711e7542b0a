//! The keys a `#[derive(Deserialize)]` struct accepts, read from the struct itself: serde
//! hands its field names to `deserialize_struct`, and a deserializer that only records
//! them answers "which keys are valid here" with no hand-kept list to drift.

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// The serialized names of `T`'s fields (empty when `T` is not a struct).
pub fn keys_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut keys = None;
    let _ = T::deserialize(FieldNames { keys: &mut keys });
    keys.unwrap_or(&[])
}

/// A deserializer that records the fields it is asked for and deserializes nothing.
struct FieldNames<'a> {
    keys: &'a mut Option<&'static [&'static str]>,
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.keys = Some(fields);
        Err(de::Error::custom("only the field names were asked for"))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Table {
        path: String,
        #[serde(rename = "server-path")]
        server_path: Option<String>,
    }

    #[test]
    fn reads_the_serialized_names() {
        assert_eq!(keys_of::<Table>(), ["path", "server-path"]);
        assert_eq!(keys_of::<u32>(), [] as [&str; 0]);
    }
}
