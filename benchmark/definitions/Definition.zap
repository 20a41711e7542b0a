-- The benchmark schema for zap 0.6: the same events and payloads as Definition.blink, in
-- zap's language. zap has no inbound limits to raise. `manual_event_loop` leaves the flush
-- to the harness, which calls SendEvents (as it calls StepReplication for Blink). The
-- output paths are where `zap Definition.zap` would write; `blinkblox bench` replaces them
-- with paths in a temporary folder and takes the modules as text.
opt server_output = "network/Server.luau"
opt client_output = "network/Client.luau"
opt remote_scope = "ZAP"
opt manual_event_loop = true
opt casing = "PascalCase"

type Entity = struct {
	id: u8,
	x: u8,
	y: u8,
	z: u8,
	orientation: u8,
	animation: u8,
}

event Booleans = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: boolean[0..1000],
}

event Entities = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: Entity[0..100],
}

event Tiny = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: u8,
}

event Strings = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: string[0..300],
}

event Numbers = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: f64[0..1000],
}

event Dictionary = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: map { [string]: f64 },
}

event Vectors = {
	from: Client,
	type: Reliable,
	call: SingleSync,
	data: Vector3[0..100],
}

funct CallResponse = {
	call: Async,
	args: f64[0..500],
	rets: f64[0..500],
}
