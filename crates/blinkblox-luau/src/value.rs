//! Values that cross from one world to another (remote arguments, replicated
//! properties). Every world is its own Lua state, so nothing is shared: buffers,
//! strings and tables are copied, Instances travel as ids and become the matching
//! Instance (or mirror) of the receiving world, Roblox datatypes travel as their
//! components.

use mlua::{Function, Lua, MultiValue, Table, Value};

/// Tables nested deeper than this (or cyclic) cannot be sent, as on Roblox.
const MAX_DEPTH: usize = 64;

/// A value in transit between worlds.
#[derive(Clone, Debug, PartialEq)]
pub enum RemoteValue {
    Nil,
    Boolean(bool),
    Number(f64),
    /// A Luau `vector` (Roblox `Vector3`).
    Vector([f32; 3]),
    String(Vec<u8>),
    /// A copy of a buffer's bytes.
    Buffer(Vec<u8>),
    /// Key/value pairs of a table (metatables do not travel).
    Table(Vec<(RemoteValue, RemoteValue)>),
    /// An Instance, named by its id in the server world. The class and name let a
    /// client make a mirror for an Instance it has not seen yet; the server looks
    /// the id up and ignores them.
    Instance {
        id: u64,
        class_name: String,
        name: String,
    },
    /// A Roblox datatype (`CFrame`, `Color3`, `BrickColor`, `DateTime`, `EnumItem`)
    /// as its type name and components (see `describe` in `mock/services.luau`).
    Datatype {
        type_name: String,
        components: Vec<RemoteValue>,
    },
}

impl RemoteValue {
    /// A buffer holding `bytes`.
    pub fn buffer(bytes: impl Into<Vec<u8>>) -> Self {
        RemoteValue::Buffer(bytes.into())
    }

    /// An array (`{[1] = a, [2] = b, …}`) of the given values.
    pub fn array(values: impl IntoIterator<Item = RemoteValue>) -> Self {
        RemoteValue::Table(
            values
                .into_iter()
                .enumerate()
                .map(|(index, value)| (RemoteValue::Number((index + 1) as f64), value))
                .collect(),
        )
    }

    /// A reference to the server Instance `id` (what a client sends for a mirror).
    pub fn instance(id: u64) -> Self {
        RemoteValue::Instance {
            id,
            class_name: String::new(),
            name: String::new(),
        }
    }

    /// Approximate size on the wire, in bytes: buffers and strings by length,
    /// numbers 8, vectors 12, Instances 4, booleans and nil 1, tables the sum of
    /// their keys and values plus 1. Exact buffer sizes are counted separately.
    pub fn estimated_size(&self) -> usize {
        match self {
            RemoteValue::Nil | RemoteValue::Boolean(_) => 1,
            RemoteValue::Number(_) => 8,
            RemoteValue::Vector(_) => 12,
            RemoteValue::String(bytes) | RemoteValue::Buffer(bytes) => bytes.len(),
            RemoteValue::Table(pairs) => {
                1 + pairs
                    .iter()
                    .map(|(key, value)| key.estimated_size() + value.estimated_size())
                    .sum::<usize>()
            }
            RemoteValue::Instance { .. } => 4,
            RemoteValue::Datatype { components, .. } => {
                1 + components.iter().map(RemoteValue::estimated_size).sum::<usize>()
            }
        }
    }

    /// Total length of the buffers in this value (nested ones included).
    pub fn buffer_bytes(&self) -> usize {
        match self {
            RemoteValue::Buffer(bytes) => bytes.len(),
            RemoteValue::Table(pairs) => pairs
                .iter()
                .map(|(key, value)| key.buffer_bytes() + value.buffer_bytes())
                .sum(),
            _ => 0,
        }
    }

    /// Number of Instances in this value (nested ones included).
    pub fn instance_count(&self) -> usize {
        match self {
            RemoteValue::Instance { .. } => 1,
            RemoteValue::Table(pairs) => pairs
                .iter()
                .map(|(key, value)| key.instance_count() + value.instance_count())
                .sum(),
            _ => 0,
        }
    }
}

/// Converts Luau values of the sending world. `describe` (the mock's
/// `M.describe`, asked about userdata: Instances and datatypes) is only looked
/// up when a userdata is met, keeping the common `(buffer, instances)` call cheap.
pub(crate) struct Capture<'a> {
    describe: Option<Function>,
    find_describe: &'a dyn Fn() -> mlua::Result<Function>,
    /// Notes about values that could not travel (functions, threads…).
    pub dropped: Vec<String>,
}

impl<'a> Capture<'a> {
    pub fn new(find_describe: &'a dyn Fn() -> mlua::Result<Function>) -> Self {
        Capture {
            describe: None,
            find_describe,
            dropped: Vec::new(),
        }
    }

    pub fn values(&mut self, values: MultiValue) -> mlua::Result<Vec<RemoteValue>> {
        values.into_iter().map(|value| self.value(value, 0)).collect()
    }

    pub fn value(&mut self, value: Value, depth: usize) -> mlua::Result<RemoteValue> {
        Ok(match value {
            Value::Nil => RemoteValue::Nil,
            Value::Boolean(flag) => RemoteValue::Boolean(flag),
            Value::Integer(number) => RemoteValue::Number(number as f64),
            Value::Number(number) => RemoteValue::Number(number),
            Value::Vector(vector) => RemoteValue::Vector([vector.x(), vector.y(), vector.z()]),
            Value::String(text) => RemoteValue::String(text.as_bytes().to_vec()),
            Value::Buffer(buffer) => RemoteValue::Buffer(buffer.to_vec()),
            Value::Table(table) => self.table(table, depth)?,
            Value::UserData(_) => self.userdata(value)?,
            other => {
                self.dropped.push(format!(
                    "a {} cannot be sent to another world; it arrives as nil",
                    other.type_name()
                ));
                RemoteValue::Nil
            }
        })
    }

    fn table(&mut self, table: Table, depth: usize) -> mlua::Result<RemoteValue> {
        if depth >= MAX_DEPTH {
            return Err(mlua::Error::runtime(format!(
                "a table nested more than {MAX_DEPTH} levels deep (or containing itself) cannot be sent to another world"
            )));
        }
        let mut pairs = Vec::new();
        for pair in table.pairs::<Value, Value>() {
            let (key, value) = pair?;
            pairs.push((self.value(key, depth + 1)?, self.value(value, depth + 1)?));
        }
        Ok(RemoteValue::Table(pairs))
    }

    fn userdata(&mut self, value: Value) -> mlua::Result<RemoteValue> {
        let describe = match &self.describe {
            Some(describe) => describe.clone(),
            None => {
                let describe = (self.find_describe)()?;
                self.describe = Some(describe.clone());
                describe
            }
        };
        let description: MultiValue = describe.call(value)?;
        let mut parts = description.into_iter();
        let kind = match parts.next() {
            Some(Value::String(kind)) => kind.to_string_lossy(),
            _ => String::from("userdata"),
        };
        match kind.as_str() {
            "Instance" => {
                let id = match parts.next() {
                    Some(Value::Integer(id)) => id as u64,
                    Some(Value::Number(id)) => id as u64,
                    // an Instance the server never saw (made on a client) arrives as nil
                    _ => return Ok(RemoteValue::Nil),
                };
                let class_name = parts.next().map(|v| text_of(&v)).unwrap_or_default();
                let name = parts.next().map(|v| text_of(&v)).unwrap_or_default();
                Ok(RemoteValue::Instance { id, class_name, name })
            }
            "CFrame" | "Color3" | "BrickColor" | "DateTime" | "EnumItem" => {
                let components = parts
                    .map(|part| self.value(part, MAX_DEPTH - 1))
                    .collect::<mlua::Result<_>>()?;
                Ok(RemoteValue::Datatype {
                    type_name: kind,
                    components,
                })
            }
            other => {
                self.dropped
                    .push(format!("a {other} cannot be sent to another world; it arrives as nil"));
                Ok(RemoteValue::Nil)
            }
        }
    }
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.to_string_lossy(),
        _ => String::new(),
    }
}

/// Builds values in the receiving world. `rebuild` is the mock's `M.rebuild`.
pub(crate) struct Restore<'a> {
    pub lua: &'a Lua,
    pub rebuild: &'a Function,
}

impl Restore<'_> {
    pub fn values(&self, values: &[RemoteValue]) -> mlua::Result<MultiValue> {
        values.iter().map(|value| self.value(value)).collect()
    }

    pub fn value(&self, value: &RemoteValue) -> mlua::Result<Value> {
        self.nested(value, 0)
    }

    /// Values nested deeper than a sender could send (only possible in packets
    /// injected from Rust) arrive as nil instead of exhausting the stack.
    fn nested(&self, value: &RemoteValue, depth: usize) -> mlua::Result<Value> {
        if depth > MAX_DEPTH {
            return Ok(Value::Nil);
        }
        Ok(match value {
            RemoteValue::Nil => Value::Nil,
            RemoteValue::Boolean(flag) => Value::Boolean(*flag),
            RemoteValue::Number(number) => Value::Number(*number),
            RemoteValue::Vector([x, y, z]) => Value::Vector(mlua::Vector::new(*x, *y, *z)),
            RemoteValue::String(bytes) => Value::String(self.lua.create_string(bytes)?),
            RemoteValue::Buffer(bytes) => Value::Buffer(self.lua.create_buffer(bytes)?),
            RemoteValue::Table(pairs) => {
                let table = self.lua.create_table_with_capacity(0, pairs.len())?;
                for (key, value) in pairs {
                    let key = self.nested(key, depth + 1)?;
                    let unusable = match key {
                        Value::Nil => true,
                        Value::Number(number) => number.is_nan(),
                        _ => false,
                    };
                    if unusable {
                        // a key that could not travel (e.g. a client-only Instance) is dropped
                        continue;
                    }
                    table.raw_set(key, self.nested(value, depth + 1)?)?;
                }
                Value::Table(table)
            }
            RemoteValue::Instance { id, class_name, name } => {
                self.rebuild
                    .call(("Instance", *id as f64, class_name.as_str(), name.as_str()))?
            }
            RemoteValue::Datatype { type_name, components } => {
                let mut arguments = MultiValue::new();
                arguments.push_back(Value::String(self.lua.create_string(type_name)?));
                for component in components {
                    arguments.push_back(self.nested(component, depth + 1)?);
                }
                self.rebuild.call(arguments)?
            }
        })
    }
}
