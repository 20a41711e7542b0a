//! The Server module: sends `From: Server` events (per-player batches, broadcasts),
//! receives `From: Client` events and function invocations, answers invocations.

use blinkblox_schema::model::{EventDecl, FunctionDecl, Reliability, Schema, Side};

use super::api::ApiItem;
use super::builder::CodeBuilder;
use super::decode_checks::decode_checks_enabled;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::naming::{channel_name, string_literal};
use super::payload::{payload_params, typed_params};
use super::remotes::{emit_scope_guard, remote_names};
use super::runtime::{self, EXPORTED, SEND_SERVER, SERVER, STREAMS_RECEIVE};
use super::streams::emit_streams;
use super::types::payload_types;

pub fn generate(schema: &Schema) -> String {
    let mut mg = ModuleGen::new(schema, Side::Server);
    let mut body = CodeBuilder::new();
    mg.emit_exports(&mut body);
    mg.emit_decode(&mut body, Reliability::Reliable);
    mg.emit_decode(&mut body, Reliability::Unreliable);
    for function in &schema.functions {
        emit_responder(&mut mg, &mut body, function);
    }
    for event in &schema.events {
        let (real, noop) = if event.from == Side::Server {
            fire_members(&mut mg, &mut body, event)
        } else {
            mg.receive_members(event)
        };
        mg.api.add(&event.scope, &event.name, real, noop);
    }
    for function in &schema.functions {
        let (real, noop) = on_function_members(&mg, function);
        mg.api.add(&function.scope, &function.name, real, noop);
    }
    emit_streams(&mut mg, &mut body);
    let m = mg.members;
    mg.api.entries.insert(
        0,
        (
            m.get_drop_counts.to_string(),
            ApiItem::Value {
                real: "GetDropCounts".into(),
                noop: "function(_Player: Player): { [string]: number } return {} end".into(),
            },
        ),
    );
    mg.api.entries.insert(
        0,
        (
            m.on_drop.to_string(),
            ApiItem::Value {
                real: "function(Hook: (Player: Player, Reason: string, Detail: string) -> ()): () -> () return ConnectMany(DropHooks, 1, Hook, nil, true, false, false) end".into(),
                noop: "NoopConnect".into(),
            },
        ),
    );
    mg.add_step_replication();

    // The preamble (prelude, receive runtime, types) and the API tables are within 64 KiB
    // for most schemas; one allocation for the module text.
    let runtime = SERVER.len() + STREAMS_RECEIVE.len() + SEND_SERVER.len() + EXPORTED.len();
    let mut out = CodeBuilder::with_capacity(body.len() + runtime + 64 * 1024);
    mg.emit_preamble(&mut out, "Server module");
    runtime::emit(&mut out, SERVER);
    runtime::emit(&mut out, STREAMS_RECEIVE);
    runtime::emit(&mut out, SEND_SERVER);
    runtime::emit(&mut out, EXPORTED);
    mg.emit_lookups(&mut out);
    mg.emit_tables(&mut out);
    out.raw(&body.finish());
    emit_start(&mut out, schema);
    mg.api.emit_returns(&mut out);
    out.finish()
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

/// `Fire` writes straight into the player's batch; the broadcasts and unreliable
/// sends serialize once into the scratch batch through a per-event writer kept in
/// `ScratchWriters` (so the record code exists once, not once per member).
fn fire_members(mg: &mut ModuleGen, body: &mut CodeBuilder, event: &EventDecl) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let m = mg.members;
    let params = payload_params(&event.data);
    let typed = typed_params(schema, &params);
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let name = describe(&event.scope, &event.name);
    let writer = format!("ScratchWriters.{}{}", channel_name(event.reliability), event.index);
    body.line(marker(&event.scope, &event.name, None));
    body.open(format!("{writer} = function({})", typed.join(", ")));
    mg.emit_scratch_record(body, event.reliability, event.index, &[], &params);
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
        // BatchUnreliable: into the frame's unreliable batches, one call per player
        // (and one FireAllClients) a frame.
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
    let mut real = Vec::new();
    for (member, first, route) in variants {
        let mut b = CodeBuilder::new();
        let mut signature: Vec<String> = first.map(|f| vec![f.to_string()]).unwrap_or_default();
        signature.extend(typed.iter().cloned());
        b.open(format!("{member} = function({})", signature.join(", ")));
        b.line(marker(&event.scope, &event.name, None));
        mg.emit_checks(&mut b, &format!("{name}.{member}"), &params);
        match route {
            Route::PlayerBatch => {
                // The hot path: written in place into the player's batch.
                b.line("local Target = BatchOf(Player)");
                b.line("Load(Target)");
                mg.emit_record(&mut b, event.reliability, event.index, &[], &params);
                b.line("Save(Target)");
            }
            Route::Broadcast => {
                // Written once into the frame's broadcast batch: one FireAllClients.
                b.line("Load(Broadcast)");
                mg.emit_record(&mut b, event.reliability, event.index, &[], &params);
                b.line("Save(Broadcast)");
            }
            Route::Scratch(send) => {
                b.line(format!("{writer}({})", names.join(", ")));
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

/// `Responders[slot]`: runs the server's handler for one invocation and writes the
/// answer into the caller's batch: `[index][call id u16][1][returns]`, or
/// `[index][call id][0]` when the handler failed (the error is printed here, as Blink).
fn emit_responder(mg: &mut ModuleGen, b: &mut CodeBuilder, function: &FunctionDecl) {
    let slot = function.index as u32 + 1;
    let returns = payload_params(&function.returns);
    let names: Vec<String> = returns.iter().map(|p| p.name.clone()).collect();
    let name = describe(&function.scope, &function.name);
    b.line(marker(&function.scope, &function.name, Some("response")));
    b.open(format!("Responders[{slot}] = (function()"));
    let mut signature = vec!["CallId: number".to_string()];
    signature.extend(typed_params(mg.schema, &returns));
    b.open(format!("local function WriteReturn({})", signature.join(", ")));
    mg.emit_checks(b, &format!("{name} (return)"), &returns);
    mg.emit_record(
        b,
        Reliability::Reliable,
        function.index,
        &[(2, "CallId".into()), (1, "1".into())],
        &returns,
    );
    b.close("end");
    b.open("return function(Player: Player, CallId: number, Listener: any, ...: any)");
    let mut results = vec!["Ok".to_string()];
    if names.is_empty() {
        results.push("Problem".into());
    } else {
        results.extend(names.iter().cloned());
    }
    b.line(format!("local {} = pcall(Listener, Player, ...)", results.join(", ")));
    b.line("EndInvocation(Player)");
    if !names.is_empty() {
        b.line(format!("local Problem: any = {}", names[0]));
    }
    b.open("if Ok then");
    b.line("BeginScratch()");
    let mut args = vec!["CallId".to_string()];
    args.extend(names.iter().cloned());
    b.line(format!(
        "local Written, WriteProblem = pcall(WriteReturn, {})",
        args.join(", ")
    ));
    b.line("EndScratch()");
    b.open("if Written then");
    b.line("CopyScratchTo(Player)");
    b.line("return");
    b.close("end");
    b.line("Problem = WriteProblem");
    b.close("end");
    b.line(format!(
        "warn(`[BlinkBlox] {} encountered an error: {{tostring(Problem)}}`)",
        string_literal(&name).trim_matches('"').replace('`', "'")
    ));
    mg.emit_failed_answer(b, function.index);
    b.close("end");
    b.close("end)()");
    b.line("");
}

fn on_function_members(mg: &ModuleGen, function: &FunctionDecl) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let slot = function.index as u32 + 1;
    let mut listener_params = vec!["Player".to_string()];
    listener_params.extend(payload_types(schema, &function.data));
    let returns = payload_types(schema, &function.returns);
    let listener_type = format!("({}) -> ({})", listener_params.join(", "), returns.join(", "));
    let mut b = CodeBuilder::new();
    b.open(format!("{} = function(Listener: {listener_type})", mg.members.on));
    b.line(format!("FunctionListeners[{slot}] = Listener"));
    b.open("while true do");
    b.line(format!("local Found, Player, Packed = Pop(FunctionQueues[{slot}])"));
    b.line("if not Found then break end");
    b.line(format!(
        "task.spawn(Responders[{slot}], Player, Packed[1], Listener, table.unpack(Packed, 2, Packed.n))"
    ));
    b.close("end");
    b.close("end,");
    (vec![b.finish()], vec![format!("{} = Noop,", mg.members.on)])
}

fn emit_start(b: &mut CodeBuilder, schema: &Schema) {
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
    b.line(format!(
        "Reliable = Remote(\"RemoteEvent\", {})",
        string_literal(&reliable)
    ));
    b.line(format!(
        "Unreliable = Remote(\"UnreliableRemoteEvent\", {})",
        string_literal(&unreliable)
    ));
    // Every packet from a client: size, byte budget, then the decode (receive.luau).
    let receive = if decode_checks_enabled() {
        "ReceiveFromClient"
    } else {
        "ReceivePacket"
    };
    b.open("Reliable.OnServerEvent:Connect(function(Player: Player, Packet: unknown, Instances: unknown)");
    b.line(format!("{receive}(DecodeReliable, Player, Packet, Instances)"));
    b.close("end)");
    b.open("Unreliable.OnServerEvent:Connect(function(Player: Player, Packet: unknown, Instances: unknown)");
    b.line(format!("{receive}(DecodeUnreliable, Player, Packet, Instances)"));
    b.close("end)");
    // Reliable broadcast streams hand their current value to whoever joins, who also
    // skips the frame's list-only broadcast records (send_server.luau).
    b.line("Players.PlayerAdded:Connect(WelcomePlayer)");
    b.open("Players.PlayerRemoving:Connect(function(Player: Player)");
    b.line("PlayerBatches[Player] = nil");
    b.line("StreamLeft(Player)");
    b.line("ForgetPlayer(Player)");
    b.close("end)");
    // The byte budget's clock (receive.luau): Heartbeat time, whatever ManualReplication says.
    b.line("RunService.Heartbeat:Connect(function(Delta: number) InboundClock += Delta end)");
    if !schema.options.manual_replication {
        b.line("RunService.Heartbeat:Connect(StepReplication)");
    }
    b.close("end");
    b.line("");
}
