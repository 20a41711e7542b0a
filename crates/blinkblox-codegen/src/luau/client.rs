//! The Client module: sends `From: Client` events and invocations, receives
//! `From: Server` events and invocation answers.

use blinkblox_schema::model::{EventDecl, FunctionDecl, Reliability, Schema, Side, YieldMode};

use super::builder::CodeBuilder;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::naming::string_literal;
use super::payload::{payload_params, typed_params};
use super::remotes::{emit_scope_guard, remote_names, server_broadcasts};
use super::runtime::CLIENT;
use super::streams::emit_streams;
use super::types::payload_types;

/// `require` is how game code requires the module, written in its header when known.
pub fn generate<'a>(schema: &'a Schema, require: Option<&'a str>) -> String {
    let mut mg = ModuleGen::new(schema, Side::Client);
    mg.require = require;
    let mut body = CodeBuilder::new();
    emit_libraries(&mut body, schema);
    mg.emit_exports(&mut body);
    let invokers: Vec<String> = schema
        .functions
        .iter()
        .map(|function| emit_invoker(&mut mg, &mut body, function))
        .collect();
    for event in &schema.events {
        let (real, noop) = if event.from == Side::Client {
            fire_members(&mut mg, event)
        } else {
            mg.receive_members(event)
        };
        mg.api.add(&event.scope, &event.name, real, noop);
    }
    for (function, invoker) in schema.functions.iter().zip(&invokers) {
        let (real, noop) = invoke_members(&mg, function, invoker);
        mg.api.add(&function.scope, &function.name, real, noop);
    }
    emit_streams(&mut mg, &mut body);
    mg.emit_decode(&mut body, Reliability::Reliable);
    mg.emit_decode(&mut body, Reliability::Unreliable);
    mg.add_step_replication();

    let mut tail = CodeBuilder::new();
    emit_step_replication(&mut tail, schema);
    let receives = (
        !mg.received(Reliability::Reliable).is_empty(),
        !mg.received(Reliability::Unreliable).is_empty(),
    );
    emit_start(&mut tail, schema, receives);
    mg.api.emit_returns(&mut tail);
    mg.assemble("Client module", CLIENT, &body.finish(), &tail.finish())
}

fn fire_members(mg: &mut ModuleGen, event: &EventDecl) -> (Vec<String>, Vec<String>) {
    let params = payload_params(&event.data);
    let typed = typed_params(mg.schema, &params);
    let member = mg.members.fire;
    let mut b = CodeBuilder::new();
    b.open_fmt(format_args!("{member} = @native function({})", typed.join(", ")));
    b.line(marker(&event.scope, &event.name, None));
    mg.emit_checks(
        &mut b,
        &format!("{}.{member}", describe(&event.scope, &event.name)),
        &params,
    );
    match event.reliability {
        Reliability::Reliable => mg.emit_guarded_record(&mut b, event.reliability, event.index, &[], &params),
        Reliability::Unreliable => {
            mg.emit_scratch_record(&mut b, event.reliability, event.index, &[], &params);
            // BatchUnreliable: into the frame's unreliable batch, one FireServer a flush.
            b.line(if mg.schema.options.batch_unreliable {
                "BatchScratchUnreliable()"
            } else {
                "SendScratchUnreliable()"
            });
        }
    }
    b.close("end,");
    (vec![b.finish()], vec![format!("{member} = Noop,")])
}

/// `InvokeTrade`: writes the invocation `[index][call id u16][data]` into the frame's batch
/// and waits for the answer (Coroutine); Future and Promise wrap it. Returns its reference.
fn emit_invoker(mg: &mut ModuleGen, b: &mut CodeBuilder, function: &FunctionDecl) -> String {
    let schema = mg.schema;
    let params = payload_params(&function.data);
    let returns = payload_types(schema, &function.returns);
    let name = describe(&function.scope, &function.name);
    let invoker = mg.function_name("Invoke", &function.scope, &function.name);
    b.line(marker(&function.scope, &function.name, None));
    mg.open_function(
        b,
        &invoker,
        &format!(
            "({}): ({})",
            typed_params(schema, &params).join(", "),
            returns.join(", ")
        ),
    );
    mg.emit_checks(b, &format!("{name}.{}", mg.members.invoke), &params);
    b.line("local CallId = ReserveCall()");
    mg.emit_guarded_record(
        b,
        Reliability::Reliable,
        function.index,
        &[(2, "CallId".into())],
        &params,
    );
    b.line("local Thread = coroutine.running()");
    b.line("Calls[CallId] = Thread");
    if let Some(seconds) = function.timeout {
        b.open_fmt(format_args!("task.delay({seconds:?}, function()"));
        b.open("if Calls[CallId] == Thread then");
        b.line("Calls[CallId] = nil");
        b.line_fmt(format_args!(
            "task.spawn(Thread, false, \"no response within {seconds} seconds\")"
        ));
        b.close("end");
        b.close("end)");
    }
    // The answer resumes the thread with `true, …returns` or `false, reason`.
    let values: Vec<String> = match returns.len() {
        0 => vec!["Problem".into()],
        1 => vec!["Returned".into()],
        count => (1..=count).map(|i| format!("Returned{i}")).collect(),
    };
    b.line_fmt(format_args!("local Ok, {} = coroutine.yield()", values.join(", ")));
    b.open("if not Ok then");
    b.line_fmt(format_args!(
        "error(\"[BlinkBlox] There was an exception while processing \" .. {} .. \": \" .. tostring({}), 2)",
        string_literal(&format!("\"{name}\"")),
        values[0]
    ));
    b.close("end");
    if !returns.is_empty() {
        b.line_fmt(format_args!("return {}", values.join(", ")));
    }
    b.close("end");
    b.line("");
    invoker
}

fn invoke_members(mg: &ModuleGen, function: &FunctionDecl, invoker: &str) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let params = payload_params(&function.data);
    let typed = typed_params(schema, &params);
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let mut call_args = vec![invoker.to_string()];
    call_args.extend(names.iter().cloned());
    let member = mg.members.invoke;
    let returns = payload_types(schema, &function.returns);
    let mut b = CodeBuilder::new();
    match function.yield_mode {
        YieldMode::Coroutine => {
            b.open_fmt(format_args!(
                "{member} = @native function({}): ({})",
                typed.join(", "),
                returns.join(", ")
            ));
            b.line_fmt(format_args!("return {invoker}({})", names.join(", ")));
        }
        // The library's own type, as its module declares it, is what `Invoke` returns.
        YieldMode::Future => {
            b.open_fmt(format_args!("{member} = @native function({})", typed.join(", ")));
            b.line_fmt(format_args!("return FutureLibrary.Try({})", call_args.join(", ")));
        }
        YieldMode::Promise => {
            b.open_fmt(format_args!("{member} = @native function({})", typed.join(", ")));
            b.open("return PromiseLibrary.new(function(Resolve: (...any) -> (), Reject: (any) -> ())");
            // Cast: pcall's type gives a function that returns nothing one result, but a
            // failed call also returns its error.
            let mut pcall_args = call_args.clone();
            pcall_args[0] = format!("{invoker} :: (...any) -> ...any");
            b.line_fmt(format_args!(
                "local Results = table.pack(pcall({}))",
                pcall_args.join(", ")
            ));
            b.open("if Results[1] then");
            b.line("Resolve(table.unpack(Results, 2, Results.n))");
            b.middle("else");
            b.line("Reject(Results[2])");
            b.close("end");
            b.close("end)");
        }
    }
    b.close("end,");
    let line = b.finish();
    (vec![line], vec![format!("{member} = Noop,")])
}

/// `FutureLibrary`/`PromiseLibrary`: the option is a Luau expression naming the module.
fn emit_libraries(b: &mut CodeBuilder, schema: &Schema) {
    let uses = |mode: YieldMode| schema.functions.iter().any(|f| f.yield_mode == mode);
    let mut any = false;
    if let (true, Some(path)) = (uses(YieldMode::Future), &schema.options.future_library) {
        b.line_fmt(format_args!("local FutureLibrary = require({path})"));
        any = true;
    }
    if let (true, Some(path)) = (uses(YieldMode::Promise), &schema.options.promise_library) {
        b.line_fmt(format_args!("local PromiseLibrary = require({path})"));
        any = true;
    }
    if any {
        b.line("");
    }
}

/// `StepReplication`: the streams' records into the batches, then the unreliable batch and
/// the resident batch sent. Sends what is there whenever it is called.
fn emit_step_replication(b: &mut CodeBuilder, schema: &Schema) {
    // Anything the client writes goes through its batches.
    let writes = schema.events.iter().any(|e| e.from == Side::Client)
        || !schema.functions.is_empty()
        || schema.streams.iter().any(|s| s.from == Side::Client)
        || schema.types.iter().any(|t| t.exported);
    b.open("@native local function StepReplication()");
    if schema.options.profile_labels {
        // A write that raised left its label open: the frame's sends end here.
        b.line("CloseWriteLabel()");
    }
    if writes {
        b.line("CloseFailedWrite()");
    }
    if schema.streams.iter().any(|s| s.from == Side::Client) {
        b.line("FlushStreams()");
    }
    let unreliable_batch = (schema.options.batch_unreliable
        && schema
            .events
            .iter()
            .any(|e| e.from == Side::Client && e.reliability == Reliability::Unreliable))
        || schema
            .streams
            .iter()
            .any(|s| s.from == Side::Client && s.reliability == Reliability::Unreliable);
    if unreliable_batch {
        b.line("SendUnreliableBatch()");
    }
    if writes {
        b.open("if SendCursor > 0 then");
        b.line("SendClientBatch()");
        b.close("end");
    }
    b.close("end");
    b.line("");
    if !schema.options.manual_replication {
        b.raw(HEARTBEAT_FLUSH);
        b.line("");
    }
}

/// Heartbeat flushes at most CLIENT_FLUSH_RATE times a second; StepReplication called by hand
/// always sends.
const HEARTBEAT_FLUSH: &str =
    "-- Heartbeat flushes at most ClientFlushRate times a second (a remote call costs about 11 bytes).
local FLUSH_INTERVAL = if CLIENT_FLUSH_RATE > 0 then 1 / CLIENT_FLUSH_RATE else 0
local SinceFlush = math.huge

@native local function FlushOnHeartbeat(DeltaTime: number)
	SinceFlush += DeltaTime
	-- A little slack, so that 60 a second at 60 frames a second is every frame.
	if SinceFlush + 1e-4 < FLUSH_INTERVAL then
		return
	end
	SinceFlush = math.min(SinceFlush - FLUSH_INTERVAL, FLUSH_INTERVAL)
	StepReplication()
end";

fn emit_start(b: &mut CodeBuilder, schema: &Schema, receives: (bool, bool)) {
    let (reliable, unreliable) = remote_names(&schema.options.remote_scope);
    b.open("local function Start()");
    b.open("if not RunService:IsClient() then");
    b.line("error(\"[BlinkBlox] the Client module was required on the server: require the Server module there\", 3)");
    b.close("end");
    emit_scope_guard(b, &schema.options.remote_scope);
    b.line_fmt(format_args!(
        "Reliable = ReplicatedStorage:WaitForChild({}) :: any",
        string_literal(&reliable)
    ));
    b.line_fmt(format_args!(
        "Unreliable = ReplicatedStorage:WaitForChild({}) :: any",
        string_literal(&unreliable)
    ));
    // A channel nothing arrives on is not listened to.
    if receives.0 && server_broadcasts(schema) {
        b.open("Reliable.OnClientEvent:Connect(@native function(Packet: unknown, Instances: unknown, Extra: unknown)");
        b.line("ReceiveFromServer(DecodeReliable, Packet, Instances, Extra)");
        b.close("end)");
    } else if receives.0 {
        // No broadcasts to interleave: every reliable packet is the player's own.
        b.open("Reliable.OnClientEvent:Connect(@native function(Packet: unknown, Instances: unknown)");
        b.line("ReceivePacket(DecodeReliable, nil, Packet, Instances)");
        b.close("end)");
    }
    if receives.1 {
        b.open("Unreliable.OnClientEvent:Connect(@native function(Packet: unknown, Instances: unknown)");
        b.line("ReceivePacket(DecodeUnreliable, nil, Packet, Instances)");
        b.close("end)");
    }
    if !schema.options.manual_replication {
        b.line("RunService.Heartbeat:Connect(FlushOnHeartbeat)");
    }
    b.close("end");
    b.line("");
}
