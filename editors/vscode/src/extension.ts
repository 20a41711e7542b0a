// The BlinkBlox extension: the .blink language (grammar and configuration come from
// package.json) and a client for the language server, `blinkblox lsp`.

import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The executable to start: `blinkblox.path`, or `blinkblox` found on PATH. */
function serverCommand(): string {
  const configured = vscode.workspace.getConfiguration("blinkblox").get<string>("path", "").trim();
  return configured.length > 0 ? configured : "blinkblox";
}

async function start(): Promise<void> {
  const command = serverCommand();
  const serverOptions: ServerOptions = { command, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "blink" },
      { scheme: "untitled", language: "blink" },
    ],
    synchronize: {
      // Imports and manifests that change on disk change what open schemas mean.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.blink,*.txt,blinkblox.toml}"),
    },
  };
  const created = new LanguageClient("blinkblox", "BlinkBlox", serverOptions, clientOptions);
  try {
    await created.start();
    client = created;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `BlinkBlox: could not start \`${command} lsp\` (${reason}). ` +
        "Install blinkblox, or set `blinkblox.path` to the executable.",
    );
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("blinkblox.restartServer", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("blinkblox.path")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
