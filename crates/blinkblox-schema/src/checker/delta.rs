//! `Delta: true` on a stream: each flush sends what changed since the value each player has.
//! That needs a value every receiver acknowledged in order (a reliable stream), one sender
//! keeping a player's last value (the server), parts to compare (a struct's fields or a map's
//! entries), and bytes that say everything (no Instances, which travel beside the buffer).

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{Reliability, Side, Type, TypeKind};
use crate::source::Span;

impl Checker<'_> {
    /// Whether `Delta: true` may go on this stream; reports why not.
    pub(super) fn delta_allowed(
        &mut self,
        span: Span,
        from: Side,
        reliability: Reliability,
        data: &Type,
        data_span: Span,
    ) -> bool {
        let problem = if from != Side::Server {
            Some((
                "a delta stream is sent by the server",
                span,
                "on a client stream",
                "write `From: Server`, or remove `Delta`: a client stream sends its whole value",
            ))
        } else if reliability != Reliability::Reliable {
            Some((
                "a delta stream must be reliable",
                span,
                "on an unreliable stream",
                "write `Type: Reliable`: an unreliable stream has no value every player is known to have, so it sends whole values",
            ))
        } else if !matches!(self.underlying(data).kind, TypeKind::Struct(_) | TypeKind::Map { .. }) {
            Some((
                "a delta stream's `Data` must be a struct or a map",
                data_span,
                "neither a struct nor a map",
                "a struct sends its changed fields, a map its added, removed and changed entries; wrap the value in a struct",
            ))
        } else if let TypeKind::Map { key, .. } = &self.underlying(data).kind
            && !matches!(
                self.underlying(key).kind,
                TypeKind::Number { .. }
                    | TypeKind::Quantized(_)
                    | TypeKind::String { .. }
                    | TypeKind::Boolean
                    | TypeKind::Enum(_)
                    | TypeKind::Vector { .. }
            )
        {
            Some((
                "a delta map's key must be a number, a string, a boolean, an enum or a vector",
                data_span,
                "a key the client would make anew",
                "changes find their entry by key; a table or Roblox value decoded on the client is a new key, unlike the one it replaces",
            ))
        } else if data.layout.uses_instances {
            Some((
                "a delta stream's `Data` cannot hold an `Instance` or `unknown`",
                data_span,
                "holds values that travel beside the bytes",
                "send the Instance in an event, or identify it by a number the game maps to it",
            ))
        } else {
            None
        };
        let Some((message, at, label, note)) = problem else {
            return true;
        };
        self.report(Diagnostic::error(codes::INVALID_DELTA, message, at, label).with_note(note));
        false
    }
}
