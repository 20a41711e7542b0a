//! The server's state and lifecycle: initialize, the documents as they are edited,
//! analyses once typing pauses, published diagnostics, shutdown and exit. Requests are
//! answered in `requests`.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, select};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    LogMessage, Notification as _, PublishDiagnostics,
};
use lsp_types::{LogMessageParams, MessageType, PublishDiagnosticsParams, Url};

use crate::analysis::{Analysis, analyze};
use crate::diagnostics::{Published, by_file};
use crate::documents::Document;
use crate::positions::Encoding;
use crate::project::Projects;
use crate::transport::{Incoming, Outgoing};
use crate::worker::{Done, Finished, Job, Worker};

/// How the server stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// `exit` after `shutdown`, as the protocol asks.
    Clean,
    /// `exit` without `shutdown`, or the input closed.
    WithoutShutdown,
}

/// How long typing must pause before a document is analysed again.
const DEBOUNCE: Duration = Duration::from_millis(150);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShuttingDown,
}

pub struct Server {
    out: Sender<Outgoing>,
    pub(crate) encoding: Encoding,
    pub(crate) documents: HashMap<Url, Document>,
    pub(crate) projects: Projects,
    published: Published,
    worker: Worker,
    phase: Phase,
}

/// Runs a server over a transport until `exit`.
pub fn serve(incoming: Receiver<Incoming>, out: Sender<Outgoing>) -> Stopped {
    let mut server = Server::new(out);
    let results = server.worker.results.clone();
    loop {
        let wait = server.next_due().map_or(Duration::from_secs(3600), |due| {
            due.saturating_duration_since(Instant::now())
        });
        select! {
            recv(incoming) -> message => match message {
                Ok(Incoming::Message(message)) => {
                    if let Some(stopped) = server.handle(message) {
                        return stopped;
                    }
                }
                Ok(Incoming::Malformed(problem)) => server.malformed(problem),
                Err(_) => return Stopped::WithoutShutdown,
            },
            recv(results) -> finished => match finished {
                Ok(Finished::Done(done)) => server.accept(done),
                Ok(Finished::Failed(uri)) => server.log(format!(
                    "blinkblox lsp: the analysis of {uri} failed; its last diagnostics stay until the next edit"
                )),
                Err(_) => {}
            },
            default(wait) => {},
        }
        server.run_due(Instant::now());
    }
}

impl Server {
    pub fn new(out: Sender<Outgoing>) -> Server {
        Server {
            out,
            encoding: Encoding::Utf16,
            documents: HashMap::new(),
            projects: Projects::default(),
            published: Published::default(),
            worker: Worker::start(),
            phase: Phase::Uninitialized,
        }
    }

    pub(crate) fn send(&self, message: Message) {
        // The writer only goes away when the editor is gone.
        let _ = self.out.send(Outgoing::Message(message));
    }

    pub(crate) fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Message::Notification(Notification::new(N::METHOD.to_string(), params)));
    }

    pub(crate) fn log(&self, text: String) {
        self.notify::<LogMessage>(LogMessageParams {
            typ: MessageType::LOG,
            message: text,
        });
    }

    /// Something arrived that is not a JSON-RPC message: answered with a parse error.
    pub fn malformed(&mut self, problem: String) {
        let _ = self.out.send(Outgoing::ParseError(problem));
    }

    /// Handles one message; `Some` when the server should stop.
    pub fn handle(&mut self, message: Message) -> Option<Stopped> {
        match message {
            Message::Request(request) => {
                self.request(request);
                None
            }
            Message::Notification(notification) => self.notification(notification),
            // The server sends no requests, so answers are not expected.
            Message::Response(_) => None,
        }
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let response = match (self.phase, request.method.as_str()) {
            (Phase::Uninitialized, "initialize") => {
                let answer = self.initialize(request);
                if answer.response_result.is_ok() {
                    self.phase = Phase::Running;
                }
                answer
            }
            (Phase::Uninitialized, _) => Response::new_err(
                id,
                ErrorCode::ServerNotInitialized as i32,
                "the server is not initialized yet".to_string(),
            ),
            (_, "initialize") => {
                Response::new_err(id, ErrorCode::InvalidRequest as i32, "already initialized".to_string())
            }
            (_, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                Response::new_ok(id, ())
            }
            (Phase::ShuttingDown, _) => Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            ),
            (Phase::Running, _) => {
                let method = request.method.clone();
                match catch_unwind(AssertUnwindSafe(|| self.answer(request))) {
                    Ok(response) => response,
                    Err(_) => {
                        self.log(format!("blinkblox lsp: answering `{method}` failed"));
                        Response::new_err(id, ErrorCode::InternalError as i32, format!("`{method}` failed"))
                    }
                }
            }
        };
        self.send(Message::Response(response));
    }

    fn notification(&mut self, notification: Notification) -> Option<Stopped> {
        if notification.method == "exit" {
            return Some(if self.phase == Phase::ShuttingDown {
                Stopped::Clean
            } else {
                Stopped::WithoutShutdown
            });
        }
        if self.phase != Phase::Running {
            return None;
        }
        let method = notification.method.clone();
        let handled = catch_unwind(AssertUnwindSafe(|| self.document_notification(notification)));
        match handled {
            Ok(Ok(())) => {}
            Ok(Err(problem)) => self.log(format!("blinkblox lsp: `{method}`: {problem}")),
            Err(_) => self.log(format!("blinkblox lsp: handling `{method}` failed")),
        }
        None
    }

    fn document_notification(&mut self, notification: Notification) -> Result<(), String> {
        let params = |n: Notification| n.params;
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let params: lsp_types::DidOpenTextDocumentParams = parse(params(notification))?;
                let document = params.text_document;
                let mut opened = Document::new(document.uri.clone(), document.version, document.text);
                opened.due = Some(Instant::now());
                self.documents.insert(document.uri, opened);
            }
            DidChangeTextDocument::METHOD => {
                let params: lsp_types::DidChangeTextDocumentParams = parse(params(notification))?;
                let encoding = self.encoding;
                let Some(document) = self.documents.get_mut(&params.text_document.uri) else {
                    return Err(format!("{} is not open", params.text_document.uri));
                };
                document.apply(params.text_document.version, params.content_changes, encoding);
                document.due = Some(Instant::now() + DEBOUNCE);
            }
            DidCloseTextDocument::METHOD => {
                let params: lsp_types::DidCloseTextDocumentParams = parse(params(notification))?;
                self.documents.remove(&params.text_document.uri);
                let changed = self.published.forget(&params.text_document.uri);
                self.publish_changes(changed);
            }
            DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD => {
                // Another schema may import the file that changed, and a manifest may have
                // changed: analyse everything open again.
                self.projects.invalidate();
                let now = Instant::now();
                for document in self.documents.values_mut() {
                    document.due = Some(now);
                    document.analysis = None;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn next_due(&self) -> Option<Instant> {
        self.documents.values().filter_map(|d| d.due).min()
    }

    /// Queues the analyses whose time has come.
    pub fn run_due(&mut self, now: Instant) {
        let due: Vec<Url> = self
            .documents
            .values()
            .filter(|d| d.due.is_some_and(|due| due <= now))
            .map(|d| d.uri.clone())
            .collect();
        for uri in due {
            let job = {
                let Some(document) = self.documents.get(&uri) else {
                    continue;
                };
                Job {
                    uri: uri.clone(),
                    version: document.version,
                    path: document.path.clone(),
                    text: Arc::clone(&document.text),
                    settings: self.settings_for(&uri),
                }
            };
            if let Some(document) = self.documents.get_mut(&uri) {
                document.due = None;
            }
            if let Some(job) = self.worker.submit(job) {
                let analysis = analyze(&job.path, &job.uri, &job.text, &job.settings);
                self.accept(Done {
                    uri: job.uri,
                    version: job.version,
                    analysis: Arc::new(analysis),
                });
            }
        }
    }

    fn settings_for(&mut self, uri: &Url) -> blinkblox_schema::CheckSettings {
        let Some(document) = self.documents.get(uri) else {
            return Default::default();
        };
        if !document.is_file {
            return Default::default();
        }
        let path = document.path.clone();
        self.projects
            .for_file(&path)
            .map(|project| project.settings_for(&path))
            .unwrap_or_default()
    }

    /// A background analysis is done: kept and published unless the document changed since.
    pub fn accept(&mut self, done: Done) {
        let Some(document) = self.documents.get_mut(&done.uri) else {
            return;
        };
        if document.version != done.version || document.current_analysis().is_some() {
            return;
        }
        document.analysis = Some((done.version, done.analysis));
        self.publish(&done.uri);
    }

    /// The analysis of a document's current text, made now if it is not ready.
    pub(crate) fn analysis(&mut self, uri: &Url) -> Option<Arc<Analysis>> {
        if let Some(analysis) = self.documents.get(uri)?.current_analysis() {
            return Some(Arc::clone(analysis));
        }
        let settings = self.settings_for(uri);
        let document = self.documents.get_mut(uri)?;
        let analysis = Arc::new(analyze(&document.path, uri, &document.text, &settings));
        document.analysis = Some((document.version, Arc::clone(&analysis)));
        document.due = None;
        self.publish(uri);
        Some(analysis)
    }

    /// Analyses a document now and publishes its diagnostics (what a pause in typing
    /// does, without the wait).
    pub fn diagnose_now(&mut self, uri: &Url) -> bool {
        if let Some(document) = self.documents.get_mut(uri) {
            document.analysis = None;
        }
        self.analysis(uri).is_some()
    }

    fn publish(&mut self, uri: &Url) {
        let Some(document) = self.documents.get(uri) else {
            return;
        };
        let Some(analysis) = document.current_analysis().cloned() else {
            return;
        };
        let project = if document.is_file {
            let path = document.path.clone();
            self.projects.for_file(&path)
        } else {
            None
        };
        let found = by_file(&analysis, uri, project.as_deref(), self.encoding);
        let changed = self.published.update(uri, found);
        self.publish_changes(changed);
    }

    fn publish_changes(&self, changed: Vec<(Url, Vec<lsp_types::Diagnostic>)>) {
        for (uri, diagnostics) in changed {
            let version = self.documents.get(&uri).map(|d| d.version);
            self.notify::<PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            });
        }
    }
}

pub(crate) fn parse<T: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(params).map_err(|err| format!("bad parameters: {err}"))
}
