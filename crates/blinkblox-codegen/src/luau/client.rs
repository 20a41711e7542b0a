//! The Client module: sends `From: Client` events and invocations, receives
//! `From: Server` events and invocation answers.

use blinkblox_schema::model::{EventDecl, FunctionDecl, Reliability, Schema, Side, YieldMode};

use super::builder::CodeBuilder;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::naming::string_literal;
use super::payload::{payload_params, typed_params};
use super::remotes::{emit_scope_guard, remote_names};
use super::runtime::{self, CLIENT, EXPORTED, SEND_CLIENT, STREAMS_RECEIVE};
use super::streams::emit_streams;
use super::types::payload_types;

pub fn generate(schema: &Schema) -> String {
    let mut mg = ModuleGen::new(schema, Side::Client);
    let mut body = CodeBuilder::new();
    mg.emit_exports(&mut body);
    mg.emit_decode(&mut body, Reliability::Reliable);
    mg.emit_decode(&mut body, Reliability::Unreliable);
    for function in &schema.functions {
        emit_invoker(&mut mg, &mut body, function);
    }
    for event in &schema.events {
        let (real, noop) = if event.from == Side::Client {
            fire_members(&mut mg, event)
        } else {
            mg.receive_members(event)
        };
        mg.api.add(&event.scope, &event.name, real, noop);
    }
    for function in &schema.functions {
        let (real, noop) = invoke_members(&mg, function);
        mg.api.add(&function.scope, &function.name, real, noop);
    }
    emit_streams(&mut mg, &mut body);
    mg.add_step_replication();

    // The preamble (prelude, receive runtime, types) and the API tables are within 64 KiB
    // for most schemas; one allocation for the module text.
    let runtime = CLIENT.len() + STREAMS_RECEIVE.len() + SEND_CLIENT.len() + EXPORTED.len();
    let mut out = CodeBuilder::with_capacity(body.len() + runtime + 64 * 1024);
    mg.emit_preamble(&mut out, "Client module");
    out.line(format!(
        "local CLIENT_FLUSH_RATE = {}",
        schema.options.client_flush_rate
    ));
    runtime::emit(&mut out, CLIENT);
    runtime::emit(&mut out, STREAMS_RECEIVE);
    runtime::emit(&mut out, SEND_CLIENT);
    runtime::emit(&mut out, EXPORTED);
    emit_libraries(&mut out, schema);
    mg.emit_lookups(&mut out);
    mg.emit_tables(&mut out);
    out.raw(&body.finish());
    emit_start(&mut out, schema);
    mg.api.emit_returns(&mut out);
    out.finish()
}

fn fire_members(mg: &mut ModuleGen, event: &EventDecl) -> (Vec<String>, Vec<String>) {
    let params = payload_params(&event.data);
    let typed = typed_params(mg.schema, &params);
    let member = mg.members.fire;
    let mut b = CodeBuilder::new();
    b.open(format!("{member} = function({})", typed.join(", ")));
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

/// `Invokers[slot]`: writes the invocation `[index][call id u16][data]` into the
/// frame's batch and waits for the answer (Coroutine); Future and Promise wrap it.
fn emit_invoker(mg: &mut ModuleGen, b: &mut CodeBuilder, function: &FunctionDecl) {
    let schema = mg.schema;
    let slot = function.index as u32 + 1;
    let params = payload_params(&function.data);
    let returns = payload_types(schema, &function.returns);
    let name = describe(&function.scope, &function.name);
    b.line(marker(&function.scope, &function.name, None));
    b.open(format!(
        "Invokers[{slot}] = function({}): ({})",
        typed_params(schema, &params).join(", "),
        returns.join(", ")
    ));
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
        b.open(format!("task.delay({seconds:?}, function()"));
        b.open("if Calls[CallId] == Thread then");
        b.line("Calls[CallId] = nil");
        b.line(format!(
            "task.spawn(Thread, false, \"no response within {seconds} seconds\")"
        ));
        b.close("end");
        b.close("end)");
    }
    b.line("local Results = table.pack(coroutine.yield())");
    b.open("if not Results[1] then");
    b.line(format!(
        "error(\"[BlinkBlox] There was an exception while processing \" .. {} .. \": \" .. tostring(Results[2]), 2)",
        string_literal(&format!("\"{name}\""))
    ));
    b.close("end");
    b.line("return table.unpack(Results, 2, Results.n)");
    b.close("end");
    b.line("");
}

fn invoke_members(mg: &ModuleGen, function: &FunctionDecl) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let slot = function.index as u32 + 1;
    let params = payload_params(&function.data);
    let typed = typed_params(schema, &params);
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let mut call_args = vec![format!("Invokers[{slot}]")];
    call_args.extend(names.iter().cloned());
    let member = mg.members.invoke;
    let returns = payload_types(schema, &function.returns);
    let line = match function.yield_mode {
        YieldMode::Coroutine => format!(
            "{member} = function({}): ({}) return Invokers[{slot}]({}) end,",
            typed.join(", "),
            returns.join(", "),
            names.join(", ")
        ),
        YieldMode::Future => format!(
            "{member} = function({}): any return FutureLibrary.Try({}) end,",
            typed.join(", "),
            call_args.join(", ")
        ),
        YieldMode::Promise => format!(
            "{member} = function({}): any return PromiseLibrary.new(function(Resolve: any, Reject: any) local Results = table.pack(pcall({})) if Results[1] then Resolve(table.unpack(Results, 2, Results.n)) else Reject(Results[2]) end end) end,",
            typed.join(", "),
            call_args.join(", ")
        ),
    };
    (vec![line], vec![format!("{member} = Noop,")])
}

/// `FutureLibrary`/`PromiseLibrary`: the option is a Luau expression naming the module.
fn emit_libraries(b: &mut CodeBuilder, schema: &Schema) {
    let uses = |mode: YieldMode| schema.functions.iter().any(|f| f.yield_mode == mode);
    if let (true, Some(path)) = (uses(YieldMode::Future), &schema.options.future_library) {
        b.line(format!("local FutureLibrary = require({path}) :: any"));
    }
    if let (true, Some(path)) = (uses(YieldMode::Promise), &schema.options.promise_library) {
        b.line(format!("local PromiseLibrary = require({path}) :: any"));
    }
    b.line("");
}

fn emit_start(b: &mut CodeBuilder, schema: &Schema) {
    let (reliable, unreliable) = remote_names(&schema.options.remote_scope);
    b.open("local function Start()");
    b.open("if not RunService:IsClient() then");
    b.line("error(\"[BlinkBlox] the Client module was required on the server: require the Server module there\", 3)");
    b.close("end");
    emit_scope_guard(b, &schema.options.remote_scope);
    b.line(format!(
        "Reliable = ReplicatedStorage:WaitForChild({}) :: any",
        string_literal(&reliable)
    ));
    b.line(format!(
        "Unreliable = ReplicatedStorage:WaitForChild({}) :: any",
        string_literal(&unreliable)
    ));
    b.open("Reliable.OnClientEvent:Connect(function(Packet: unknown, Instances: unknown, Extra: unknown)");
    b.line("ReceiveFromServer(DecodeReliable, Packet, Instances, Extra)");
    b.close("end)");
    b.open("Unreliable.OnClientEvent:Connect(function(Packet: unknown, Instances: unknown)");
    b.line("ReceivePacket(DecodeUnreliable, nil, Packet, Instances)");
    b.close("end)");
    if !schema.options.manual_replication {
        b.line("RunService.Heartbeat:Connect(FlushOnHeartbeat)");
    }
    b.close("end");
    b.line("");
}
