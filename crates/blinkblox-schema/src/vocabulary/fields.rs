//! The fields of `event`, `function` and `stream` blocks: each key, what it means, whether
//! it is required, and the words it takes with the model value each stands for. The
//! checker reads keys and words from here; the language server its hover and completion.

use crate::model::{CallMode, Reliability, Side, YieldMode};

/// A word a field takes, the value it stands for, and what it means.
pub struct Choice<T: 'static> {
    pub word: &'static str,
    pub value: T,
    pub about: &'static str,
}

pub const FROM: &[Choice<Side>] = &[
    Choice {
        word: "Server",
        value: Side::Server,
        about: "the server sends it",
    },
    Choice {
        word: "Client",
        value: Side::Client,
        about: "a client sends it",
    },
];

pub const RELIABILITY: &[Choice<Reliability>] = &[
    Choice {
        word: "Reliable",
        value: Reliability::Reliable,
        about: "ordered and never lost, batched each frame",
    },
    Choice {
        word: "Unreliable",
        value: Reliability::Unreliable,
        about: "may be lost or reordered; at most `MaxUnreliableSize` bytes",
    },
];

pub const CALL: &[Choice<CallMode>] = &[
    Choice {
        word: "SingleSync",
        value: CallMode::SingleSync,
        about: "one listener, run inside the decode (must not yield)",
    },
    Choice {
        word: "SingleAsync",
        value: CallMode::SingleAsync,
        about: "one listener, run in a thread of its own",
    },
    Choice {
        word: "ManySync",
        value: CallMode::ManySync,
        about: "any number of listeners, run inside the decode",
    },
    Choice {
        word: "ManyAsync",
        value: CallMode::ManyAsync,
        about: "any number of listeners, each in a thread of its own",
    },
    Choice {
        word: "Polling",
        value: CallMode::Polling,
        about: "no listener: read what arrived with `Iter()`",
    },
];

pub const YIELD: &[Choice<YieldMode>] = &[
    Choice {
        word: "Coroutine",
        value: YieldMode::Coroutine,
        about: "`Invoke` yields and returns the values",
    },
    Choice {
        word: "Future",
        value: YieldMode::Future,
        about: "`Invoke` returns a Future (needs `option FutureLibrary`)",
    },
    Choice {
        word: "Promise",
        value: YieldMode::Promise,
        about: "`Invoke` returns a Promise (needs `option PromiseLibrary`)",
    },
];

pub const PER: &[Choice<()>] = &[Choice {
    word: "Player",
    value: (),
    about: "one value per player",
}];

pub const BOOLEAN: &[Choice<bool>] = &[
    Choice {
        word: "true",
        value: true,
        about: "",
    },
    Choice {
        word: "false",
        value: false,
        about: "",
    },
];

/// Which words a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A type, a type pack or a number: no fixed words.
    Other,
    From,
    Reliability,
    Call,
    Yield,
    Per,
    Boolean,
}

impl Takes {
    /// The words, each with what it means.
    pub fn words(self) -> Vec<(&'static str, &'static str)> {
        fn listed<T>(choices: &'static [Choice<T>]) -> Vec<(&'static str, &'static str)> {
            choices.iter().map(|choice| (choice.word, choice.about)).collect()
        }
        match self {
            Takes::Other => Vec::new(),
            Takes::From => listed(FROM),
            Takes::Reliability => listed(RELIABILITY),
            Takes::Call => listed(CALL),
            Takes::Yield => listed(YIELD),
            Takes::Per => listed(PER),
            Takes::Boolean => listed(BOOLEAN),
        }
    }
}

/// A field of a declaration block.
pub struct Field {
    pub key: &'static str,
    pub about: &'static str,
    pub takes: Takes,
    pub required: bool,
}

/// `Type`, the channel, as events and streams both have it.
const CHANNEL: Field = Field {
    key: "Type",
    about: "the channel",
    takes: Takes::Reliability,
    required: true,
};

pub const EVENT_FIELDS: &[Field] = &[
    Field {
        key: "From",
        about: "which side sends it",
        takes: Takes::From,
        required: true,
    },
    CHANNEL,
    Field {
        key: "Call",
        about: "how listeners run",
        takes: Takes::Call,
        required: true,
    },
    Field {
        key: "Data",
        about: "what it carries: a type, or a type pack `(A, B)`",
        takes: Takes::Other,
        required: false,
    },
    Field {
        key: "Poll",
        about: "Blink's older spelling of `Call: Polling`",
        takes: Takes::Boolean,
        required: false,
    },
];

pub const FUNCTION_FIELDS: &[Field] = &[
    Field {
        key: "Yield",
        about: "what `Invoke` returns",
        takes: Takes::Yield,
        required: true,
    },
    Field {
        key: "Data",
        about: "what the client sends: a type, or a type pack",
        takes: Takes::Other,
        required: false,
    },
    Field {
        key: "Return",
        about: "what the server answers: a type, or a type pack",
        takes: Takes::Other,
        required: false,
    },
    Field {
        key: "Timeout",
        about: "seconds `Invoke` waits for an answer before raising",
        takes: Takes::Other,
        required: false,
    },
];

pub const STREAM_FIELDS: &[Field] = &[
    Field {
        key: "From",
        about: "which side sets the value",
        takes: Takes::From,
        required: true,
    },
    CHANNEL,
    Field {
        key: "Per",
        about: "`Player`: a server stream with one value per player",
        takes: Takes::Per,
        required: false,
    },
    Field {
        key: "Data",
        about: "the value's type (one type, not a pack)",
        takes: Takes::Other,
        required: true,
    },
    Field {
        key: "Delta",
        about: "`true`: send what changed since the value each player has (a reliable server stream of a struct or a map)",
        takes: Takes::Boolean,
        required: false,
    },
];

/// The fields of a declaration keyword's block.
pub fn fields_of(keyword: &str) -> &'static [Field] {
    match keyword {
        "event" => EVENT_FIELDS,
        "function" => FUNCTION_FIELDS,
        "stream" => STREAM_FIELDS,
        _ => &[],
    }
}

/// A field by its key, matched as the checker matches keys (ignoring case).
pub fn field(keyword: &str, key: &str) -> Option<&'static Field> {
    fields_of(keyword)
        .iter()
        .find(|field| field.key.eq_ignore_ascii_case(key))
}
