//! A declaration's values as the generated functions take them: `Value`, or `Value1`,
//! `Value2`, … for a tuple.

use blinkblox_schema::model::{Payload, Schema, Type};

use super::types::luau_type;

/// A value of a payload: its Luau parameter name and type.
pub struct Param<'a> {
    pub name: String,
    pub ty: &'a Type,
}

pub fn payload_params(payload: &Payload) -> Vec<Param<'_>> {
    match payload {
        Payload::None => Vec::new(),
        Payload::Single(ty) => vec![Param {
            name: "Value".into(),
            ty,
        }],
        Payload::Tuple(types) => types
            .iter()
            .enumerate()
            .map(|(i, ty)| Param {
                name: format!("Value{}", i + 1),
                ty,
            })
            .collect(),
    }
}

/// `Value: T, Value2: U` for a function signature.
pub fn typed_params(schema: &Schema, params: &[Param]) -> Vec<String> {
    params
        .iter()
        .map(|p| format!("{}: {}", p.name, luau_type(schema, p.ty)))
        .collect()
}
