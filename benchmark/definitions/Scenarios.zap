-- The Rivals schema for zap 0.6: the events of Scenarios.blink in zap's language (zap has no
-- streams). `manual_event_loop` leaves the flush to the harness, which calls SendEvents. The
-- output paths are where `zap Scenarios.zap` would write; `blinkblox bench` replaces them
-- with paths in a temporary folder and takes the modules as text.
opt server_output = "network/Server.luau"
opt client_output = "network/Client.luau"
opt remote_scope = "SCENARIOS"
opt manual_event_loop = true
opt casing = "PascalCase"

type Unit = struct {
	id: u16,
	position: Vector3,
	health: u8,
	alive: boolean,
}

type Input = struct {
	action: u8,
	aim: Vector3,
}

event Broadcast = {
	from: Server,
	type: Reliable,
	call: SingleSync,
	data: Unit,
}

event UnreliableInput = {
	from: Client,
	type: Unreliable,
	call: SingleSync,
	data: Input,
}

event Instances = {
	from: Server,
	type: Reliable,
	call: SingleSync,
	data: Instance,
}

event WorldState = {
	from: Server,
	type: Unreliable,
	call: SingleSync,
	data: Unit[0..16],
}

event SelfState = {
	from: Server,
	type: Unreliable,
	call: SingleSync,
	data: Unit,
}

type Positioned = struct {
	id: u16,
	position: Vector3,
	health: u8,
}

event PositionsWhole = {
	from: Server,
	type: Reliable,
	call: SingleSync,
	data: Positioned[0..64],
}
