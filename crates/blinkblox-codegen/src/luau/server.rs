//! The Server module: sends `From: Server` events (per-player batches, broadcasts),
//! receives `From: Client` events and function invocations, answers invocations.

use blinkblox_schema::model::{EventDecl, FunctionDecl, Reliability, Schema, Side};

use super::api::ApiItem;
use super::builder::CodeBuilder;
use super::decode_checks::decode_checks_enabled;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::naming::string_literal;
use super::payload::{payload_params, typed_params};
use super::remotes::{emit_scope_guard, remote_names, server_broadcasts};
use super::runtime::SERVER;
use super::streams::emit_streams;
use super::types::payload_types;

/// `require` is how game code requires the module, written in its header when known.
pub fn generate<'a>(schema: &'a Schema, require: Option<&'a str>) -> String {
    let mut mg = ModuleGen::new(schema, Side::Server);
    mg.require = require;
    let mut body = CodeBuilder::new();
    mg.emit_exports(&mut body);
    let responders: Vec<String> = schema
        .functions
        .iter()
        .map(|function| emit_responder(&mut mg, &mut body, function))
        .collect();
    for event in &schema.events {
        let (real, noop) = if event.from == Side::Server {
            fire_members(&mut mg, &mut body, event)
        } else {
            mg.receive_members(event)
        };
        mg.api.add(&event.scope, &event.name, real, noop);
    }
    for function in &schema.functions {
        let (real, noop) = on_function_members(&mg, function, &responders[function_position(schema, function)]);
        mg.api.add(&function.scope, &function.name, real, noop);
    }
    emit_streams(&mut mg, &mut body);
    mg.responders = responders;
    mg.emit_decode(&mut body, Reliability::Reliable);
    mg.emit_decode(&mut body, Reliability::Unreliable);
    let m = mg.members;
    mg.api.entries.insert(
        0,
        (
            m.get_drop_counts.to_string(),
            ApiItem::Value {
                real: "GetDropCounts".into(),
                noop: "function(_Player: Player): { [string]: number }\n\treturn {}\nend".into(),
            },
        ),
    );
    mg.api.entries.insert(
        0,
        (
            m.on_drop.to_string(),
            ApiItem::Value {
                real: "ConnectDropHook".into(),
                noop: "NoopConnect".into(),
            },
        ),
    );
    mg.add_step_replication();

    let mut tail = CodeBuilder::new();
    let sends = Sends::of(&mg);
    emit_step_replication(&mut tail, schema, &sends);
    emit_start(&mut tail, schema, &sends);
    mg.api.emit_returns(&mut tail);
    mg.assemble("Server module", SERVER, &body.finish(), &tail.finish())
}

/// The position of a function among the schema's functions.
fn function_position(schema: &Schema, function: &FunctionDecl) -> usize {
    schema
        .functions
        .iter()
        .position(|f| std::ptr::eq(f, function))
        .unwrap_or(0)
}

/// What the server sends, which decides its flush and what it forgets of a player who leaves.
struct Sends {
    /// Per-player reliable batches and the broadcast batch: reliable events, invocation
    /// answers, reliable streams.
    reliable: bool,
    /// Broadcast records some players skip (FireList, FireExcept).
    skips: bool,
    /// Unreliable batches (BatchUnreliable events, unreliable streams).
    unreliable_batches: bool,
    streams: bool,
    /// Server streams with `Delta: true` (their own flush, joins and leaves).
    delta_streams: bool,
    received_streams: bool,
    functions: bool,
    /// Whether anything arrives on each channel (else its remote is not listened to).
    receives_reliable: bool,
    receives_unreliable: bool,
}

impl Sends {
    fn of(mg: &ModuleGen) -> Sends {
        let schema = mg.schema;
        let server_events = |reliability: Reliability| {
            schema
                .events
                .iter()
                .any(|e| e.from == Side::Server && e.reliability == reliability)
        };
        let server_streams = |reliability: Reliability| {
            schema
                .streams
                .iter()
                .any(|s| s.from == Side::Server && s.reliability == reliability)
        };
        Sends {
            // The Client listens for broadcasts exactly when this is true of the schema.
            reliable: server_broadcasts(schema) || !schema.functions.is_empty(),
            skips: server_events(Reliability::Reliable),
            unreliable_batches: (schema.options.batch_unreliable && server_events(Reliability::Unreliable))
                || server_streams(Reliability::Unreliable),
            streams: schema.streams.iter().any(|s| s.from == Side::Server && !s.delta),
            delta_streams: schema.streams.iter().any(|s| s.from == Side::Server && s.delta),
            received_streams: schema.streams.iter().any(|s| s.from == Side::Client),
            functions: !schema.functions.is_empty(),
            receives_reliable: !mg.received(Reliability::Reliable).is_empty(),
            receives_unreliable: !mg.received(Reliability::Unreliable).is_empty(),
        }
    }
}

/// Where a server send writes its record.
enum Route {
    /// The player's reliable batch.
    PlayerBatch,
    /// The frame's broadcast batch (reliable FireAll).
    Broadcast,
    /// The scratch batch, then the given Luau statement sends or copies it.
    Scratch(&'static str),
}

/// The event's writer (`WriteHit`: its record into the loaded batch) and its checks
/// (`ValidateHit`), shared by the four members: `Fire` writes into the player's batch,
/// `FireAll` into the broadcast batch, the others into the scratch batch, then send it.
fn fire_members(mg: &mut ModuleGen, body: &mut CodeBuilder, event: &EventDecl) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let m = mg.members;
    let params = payload_params(&event.data);
    let typed = typed_params(schema, &params);
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let name = describe(&event.scope, &event.name);
    let validate = if schema.options.write_validations {
        let validate = mg.function_name("Validate", &event.scope, &event.name);
        body.line(marker(&event.scope, &event.name, None));
        mg.open_function(body, &validate, &format!("({})", typed.join(", ")));
        mg.emit_checks(body, &format!("{name}.Fire"), &params);
        body.close("end");
        body.line("");
        Some(validate)
    } else {
        None
    };
    let writer = mg.function_name("Write", &event.scope, &event.name);
    if validate.is_none() {
        body.line(marker(&event.scope, &event.name, None));
    }
    mg.open_function(body, &writer, &format!("({})", typed.join(", ")));
    mg.emit_record(body, event.reliability, event.index, &[], &params);
    body.close("end");
    body.line("");

    let variants: [(&str, Option<&str>, Route); 4] = match event.reliability {
        Reliability::Reliable => [
            (m.fire, Some("Player: Player"), Route::PlayerBatch),
            (m.fire_all, None, Route::Broadcast),
            (
                m.fire_list,
                Some("List: { Player }"),
                Route::Scratch("SendScratchToList(List)"),
            ),
            (
                m.fire_except,
                Some("Except: Player"),
                Route::Scratch("BroadcastScratchExcept(Except)"),
            ),
        ],
        // BatchUnreliable: into the frame's unreliable batches, one call per player a frame.
        Reliability::Unreliable if schema.options.batch_unreliable => [
            (
                m.fire,
                Some("Player: Player"),
                Route::Scratch("BatchScratchUnreliable(Player)"),
            ),
            (m.fire_all, None, Route::Scratch("BatchScratchUnreliable(nil)")),
            (
                m.fire_list,
                Some("List: { Player }"),
                Route::Scratch("BatchScratchUnreliableToList(List)"),
            ),
            (
                m.fire_except,
                Some("Except: Player"),
                Route::Scratch("BatchScratchUnreliableToAllExcept(Except)"),
            ),
        ],
        Reliability::Unreliable => [
            (
                m.fire,
                Some("Player: Player"),
                Route::Scratch("SendScratchUnreliable(Player)"),
            ),
            (
                m.fire_all,
                None,
                Route::Scratch("SendScratchUnreliableToAllExcept(nil)"),
            ),
            (
                m.fire_list,
                Some("List: { Player }"),
                Route::Scratch("SendScratchUnreliableToList(List)"),
            ),
            (
                m.fire_except,
                Some("Except: Player"),
                Route::Scratch("SendScratchUnreliableToAllExcept(Except)"),
            ),
        ],
    };
    let call = format!("{writer}({})", names.join(", "));
    let mut real = Vec::new();
    for (member, first, route) in variants {
        let mut b = CodeBuilder::new();
        let mut signature: Vec<String> = first.map(|f| vec![f.to_string()]).unwrap_or_default();
        signature.extend(typed.iter().cloned());
        b.open_fmt(format_args!("{member} = @native function({})", signature.join(", ")));
        if let Some(validate) = &validate {
            b.line_fmt(format_args!("{validate}({})", names.join(", ")));
        }
        match route {
            Route::PlayerBatch => {
                b.line("local Target = BatchOf(Player)");
                b.line("Load(Target)");
                b.line(&call);
                b.line("Save(Target)");
            }
            Route::Broadcast => {
                b.line("Load(Broadcast)");
                b.line(&call);
                b.line("Save(Broadcast)");
            }
            Route::Scratch(send) => {
                b.line("BeginScratch()");
                b.line(&call);
                b.line("EndScratch()");
                b.line(send);
            }
        }
        b.close("end,");
        real.push(b.finish());
    }
    let noop = [m.fire, m.fire_all, m.fire_list, m.fire_except]
        .iter()
        .map(|member| format!("{member} = Noop,"))
        .collect();
    (real, noop)
}

/// `RespondTrade`: runs the server's handler for one invocation and writes the answer
/// (`WriteTradeReturn`) into the caller's batch: `[index][call id u16][1][returns]`, or
/// `[index][call id][0]` when the handler failed (the error is printed here, as Blink).
/// Returns the responder's reference.
fn emit_responder(mg: &mut ModuleGen, b: &mut CodeBuilder, function: &FunctionDecl) -> String {
    let returns = payload_params(&function.returns);
    let names: Vec<String> = returns.iter().map(|p| p.name.clone()).collect();
    let name = describe(&function.scope, &function.name);
    let write_return = mg.function_name("Write", &function.scope, &format!("{}Return", function.name));
    let respond = mg.function_name("Respond", &function.scope, &function.name);
    b.line(marker(&function.scope, &function.name, Some("response")));
    let mut signature = vec!["CallId: number".to_string()];
    signature.extend(typed_params(mg.schema, &returns));
    mg.open_function(b, &write_return, &format!("({})", signature.join(", ")));
    mg.emit_checks(b, &format!("{name} (return)"), &returns);
    mg.emit_record(
        b,
        Reliability::Reliable,
        function.index,
        &[(2, "CallId".into()), (1, "1".into())],
        &returns,
    );
    b.close("end");
    b.line("");
    mg.open_function(
        b,
        &respond,
        "(Player: Player, CallId: number, Listener: (...any) -> ...any, ...: any)",
    );
    let mut results = vec!["Ok".to_string()];
    if names.is_empty() {
        results.push("Problem".into());
    } else {
        results.extend(names.iter().cloned());
    }
    // The handler's results as `any`: what it returns is checked as it is written.
    b.line_fmt(format_args!(
        "local {}: any = pcall(Listener, Player, ...)",
        results.join(", ")
    ));
    b.line("EndInvocation(Player)");
    if !names.is_empty() {
        b.line_fmt(format_args!("local Problem: any = {}", names[0]));
    }
    b.open("if Ok then");
    b.line("BeginScratch()");
    // Cast: pcall's type gives a function that returns nothing one result, but a failed call
    // also returns its error.
    let mut args = vec![format!("{write_return} :: (...any) -> ...any"), "CallId".to_string()];
    args.extend(names.iter().cloned());
    b.line_fmt(format_args!(
        "local Written, WriteProblem: any = pcall({})",
        args.join(", ")
    ));
    b.line("EndScratch()");
    b.open("if Written then");
    b.line("CopyScratchTo(Player)");
    b.line("return");
    b.close("end");
    b.line("Problem = WriteProblem");
    b.close("end");
    b.line_fmt(format_args!(
        "warn(`[BlinkBlox] {} encountered an error: {{tostring(Problem)}}`)",
        string_literal(&name).trim_matches('"').replace('`', "'")
    ));
    mg.emit_failed_answer(b, function.index);
    b.close("end");
    b.line("");
    respond
}

fn on_function_members(mg: &ModuleGen, function: &FunctionDecl, respond: &str) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let slot = function.index as u32 + 1;
    let mut listener_params = vec!["Player".to_string()];
    listener_params.extend(payload_types(schema, &function.data));
    let returns = payload_types(schema, &function.returns);
    let listener_type = format!("({}) -> ({})", listener_params.join(", "), returns.join(", "));
    let mut b = CodeBuilder::new();
    b.open_fmt(format_args!("{} = function(Listener: {listener_type})", mg.members.on));
    b.line_fmt(format_args!("FunctionListeners[{slot}] = Listener"));
    b.open("while true do");
    b.line_fmt(format_args!(
        "local Found, Player, Packed = Pop(FunctionQueues[{slot}])"
    ));
    b.open("if not Found then");
    b.line("break");
    b.close("end");
    b.line_fmt(format_args!(
        "task.spawn({respond}, Player, Packed[1], Listener, table.unpack(Packed, 2, Packed.n))"
    ));
    b.close("end");
    b.close("end,");
    (vec![b.finish()], vec![format!("{} = Noop,", mg.members.on)])
}

/// `StepReplication`: the streams' records into the batches, then every batch sent.
fn emit_step_replication(b: &mut CodeBuilder, schema: &Schema, sends: &Sends) {
    b.open("@native local function StepReplication()");
    if schema.options.profile_labels {
        // A write that raised left its label open: the frame's sends end here.
        b.line("CloseWriteLabel()");
    }
    if sends.skips {
        // A player who joins from now on gets the next frame's broadcast: no records to skip.
        b.line("table.clear(ListedRanges)");
    }
    if sends.streams {
        b.line("FlushStreams()");
    }
    if sends.delta_streams {
        b.line("FlushDeltaStreams()");
    }
    if sends.reliable {
        b.line("SendReliableBatches()");
    }
    if sends.unreliable_batches {
        b.line("SendUnreliableBatches()");
    }
    b.close("end");
    b.line("");
}

fn emit_start(b: &mut CodeBuilder, schema: &Schema, sends: &Sends) {
    let (reliable, unreliable) = remote_names(&schema.options.remote_scope);
    b.open("local function Start()");
    b.open("if not RunService:IsServer() then");
    b.line("error(\"[BlinkBlox] the Server module was required on a client: require the Client module there\", 3)");
    b.close("end");
    emit_scope_guard(b, &schema.options.remote_scope);
    b.open("local function Remote(Class: string, Name: string): any");
    b.line("local Found: any = ReplicatedStorage:FindFirstChild(Name)");
    b.open("if Found == nil then");
    b.line("Found = Instance.new(Class)");
    b.line("Found.Name = Name");
    b.line("Found.Parent = ReplicatedStorage");
    b.close("end");
    b.line("return Found");
    b.close("end");
    b.line_fmt(format_args!(
        "Reliable = Remote(\"RemoteEvent\", {})",
        string_literal(&reliable)
    ));
    b.line_fmt(format_args!(
        "Unreliable = Remote(\"UnreliableRemoteEvent\", {})",
        string_literal(&unreliable)
    ));
    // Every packet from a client: its size, the byte budget, then the decode.
    let receive = if decode_checks_enabled() {
        "ReceiveFromClient"
    } else {
        "ReceivePacket"
    };
    for (remote, receives) in [
        ("Reliable", sends.receives_reliable),
        ("Unreliable", sends.receives_unreliable),
    ] {
        if receives {
            b.open_fmt(format_args!(
                "{remote}.OnServerEvent:Connect(@native function(Player: Player, Packet: unknown, Instances: unknown)"
            ));
            b.line_fmt(format_args!("{receive}(Decode{remote}, Player, Packet, Instances)"));
            b.close("end)");
        }
    }
    if sends.skips || sends.streams || sends.delta_streams {
        // A player who joins skips this frame's list-only broadcast records and gets the
        // reliable broadcast streams' values.
        b.open("Players.PlayerAdded:Connect(function(Player: Player)");
        if sends.skips {
            b.line("SkipListedFor(Player)");
        }
        if sends.streams {
            b.line("StreamsJoined(Player)");
        }
        if sends.delta_streams {
            b.line("DeltaStreamsJoined(Player)");
        }
        b.close("end)");
    }
    b.open("Players.PlayerRemoving:Connect(function(Player: Player)");
    if sends.streams || sends.delta_streams {
        b.line("PlayersLeft[Player] = true");
    }
    if sends.reliable {
        b.line("PlayerBatches[Player] = nil");
    }
    if sends.unreliable_batches {
        b.line("UnreliableBatches[Player] = nil");
    }
    if sends.streams {
        b.line("StreamsLeft(Player)");
    }
    if sends.delta_streams {
        b.line("DeltaStreamsLeft(Player)");
    }
    if sends.received_streams {
        b.line("ForgetIncomingStreams(Player)");
    }
    if sends.functions {
        b.line("PendingInvocations[Player] = nil");
    }
    if decode_checks_enabled() {
        b.line("ForgetPlayer(Player)");
    } else {
        b.line("DropCounts[Player] = nil");
    }
    b.close("end)");
    if decode_checks_enabled() {
        // The byte budget's clock: Heartbeat time, whatever ManualReplication says.
        b.open("RunService.Heartbeat:Connect(function(Delta: number)");
        b.line("InboundClock += Delta");
        b.close("end)");
    }
    if !schema.options.manual_replication {
        b.line("RunService.Heartbeat:Connect(StepReplication)");
    }
    b.close("end");
    b.line("");
}
