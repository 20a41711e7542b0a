//! Answers to the editor's requests: capabilities, hover, navigation, rename, completion,
//! outline, folding, semantic tokens, quick fixes and formatting.

use blinkblox_fs::read::read_file;
use blinkblox_schema::loader::MAX_FILE_BYTES;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use blinkblox_schema::source::Span;
use lsp_server::{ErrorCode, Request, Response};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting, GotoDefinition,
    HoverRequest, PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions, CompletionResponse,
    DocumentSymbolResponse, FoldingRangeProviderCapability, HoverProviderCapability, InitializeParams,
    InitializeResult, Location, OneOf, PositionEncodingKind, PrepareRenameResponse, RenameOptions, SaveOptions,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensResult, SemanticTokensServerCapabilities,
    ServerCapabilities, ServerInfo, TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, Url, WorkDoneProgressOptions, WorkspaceEdit,
};

use crate::analysis::{Analysis, ROOT, analyze};
use crate::navigation::{self, SymbolKey};
use crate::positions::Encoding;
use crate::server::{Server, parse};
use crate::{code_actions, completion, folding, formatting, hover, rename, semantic_tokens, symbols};

type Answer<T> = Result<T, (ErrorCode, String)>;

fn failed(message: impl Into<String>) -> (ErrorCode, String) {
    (ErrorCode::RequestFailed, message.into())
}

impl Server {
    pub(crate) fn initialize(&mut self, request: Request) -> Response {
        let params: InitializeParams = match parse(request.params) {
            Ok(params) => params,
            Err(problem) => return Response::new_err(request.id, ErrorCode::InvalidParams as i32, problem),
        };
        let offers_utf8 = params
            .capabilities
            .general
            .and_then(|general| general.position_encodings)
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        self.encoding = if offers_utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
        let capabilities = ServerCapabilities {
            position_encoding: Some(if offers_utf8 {
                PositionEncodingKind::UTF8
            } else {
                PositionEncodingKind::UTF16
            }),
            text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            })),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![":".to_string(), ".".to_string(), "=".to_string()]),
                ..CompletionOptions::default()
            }),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            })),
            document_symbol_provider: Some(OneOf::Left(true)),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                SemanticTokensOptions {
                    legend: semantic_tokens::legend(),
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                },
            )),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..CodeActionOptions::default()
            })),
            document_formatting_provider: Some(OneOf::Left(true)),
            ..ServerCapabilities::default()
        };
        let result = InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "blinkblox".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        };
        Response::new_ok(request.id, result)
    }

    pub(crate) fn answer(&mut self, request: Request) -> Response {
        match request.method.as_str() {
            HoverRequest::METHOD => self.respond::<HoverRequest>(request, |server, params| {
                let position = params.text_document_position_params;
                let (analysis, offset) = server.at(&position)?;
                Ok(hover::hover(&analysis, offset, server.encoding))
            }),
            GotoDefinition::METHOD => self.respond::<GotoDefinition>(request, |server, params| {
                let (analysis, offset) = server.at(&params.text_document_position_params)?;
                Ok(navigation::definition(&analysis, offset, server.encoding))
            }),
            References::METHOD => self.respond::<References>(request, |server, params| {
                let include_declaration = params.context.include_declaration;
                let position = params.text_document_position;
                let (analysis, offset) = server.at(&position)?;
                let Some((symbol, _)) = analysis.index.symbol_at(ROOT, offset) else {
                    return Ok(None);
                };
                let Some(key) = navigation::key_of(&analysis, symbol) else {
                    return Ok(None);
                };
                let found = server.everywhere(&position.text_document.uri, &key);
                let locations = found
                    .into_iter()
                    .filter(|place| include_declaration || !place.declaration)
                    .map(|place| Location::new(place.uri, place.range))
                    .collect();
                Ok(Some(locations))
            }),
            PrepareRenameRequest::METHOD => self.respond::<PrepareRenameRequest>(request, |server, params| {
                let (analysis, offset) = server.at(&params)?;
                let (_, span) = rename::target(&analysis, offset).map_err(failed)?;
                Ok(Some(PrepareRenameResponse::Range(
                    analysis.range(span, server.encoding),
                )))
            }),
            Rename::METHOD => self.respond::<Rename>(request, |server, params| {
                let position = params.text_document_position;
                server.rename(&position, &params.new_name).map(Some)
            }),
            Completion::METHOD => self.respond::<Completion>(request, |server, params| {
                let position = params.text_document_position;
                let encoding = server.encoding;
                let document = server.document(&position.text_document.uri)?;
                let offset = document.lines.offset(&document.text, position.position, encoding);
                // Names from the latest analysis, even of an older text: completion must not
                // wait for the analysis of each keystroke.
                let analysis = document.analysis.as_ref().map(|(_, analysis)| analysis.as_ref());
                let items = completion::complete(&document.text, analysis, offset as usize);
                Ok(Some(CompletionResponse::Array(items)))
            }),
            DocumentSymbolRequest::METHOD => self.respond::<DocumentSymbolRequest>(request, |server, params| {
                let analysis = server.analysis_of(&params.text_document.uri)?;
                Ok(Some(DocumentSymbolResponse::Nested(symbols::document_symbols(
                    &analysis,
                    server.encoding,
                ))))
            }),
            FoldingRangeRequest::METHOD => self.respond::<FoldingRangeRequest>(request, |server, params| {
                let document = server.document(&params.text_document.uri)?;
                Ok(Some(folding::folding_ranges(&document.text, &document.lines)))
            }),
            SemanticTokensFullRequest::METHOD => {
                self.respond::<SemanticTokensFullRequest>(request, |server, params| {
                    let analysis = server.analysis_of(&params.text_document.uri)?;
                    let tokens = semantic_tokens::tokens(&analysis, server.encoding);
                    Ok(Some(SemanticTokensResult::Tokens(tokens)))
                })
            }
            CodeActionRequest::METHOD => self.respond::<CodeActionRequest>(request, |server, params| {
                let analysis = server.analysis_of(&params.text_document.uri)?;
                let actions =
                    code_actions::actions(&analysis, &params.text_document.uri, params.range, server.encoding);
                Ok(Some(actions))
            }),
            Formatting::METHOD => self.respond::<Formatting>(request, |server, params| {
                let encoding = server.encoding;
                let document = server.document(&params.text_document.uri)?;
                let edits = formatting::format(document, encoding);
                if edits.is_none() {
                    server.log(format!(
                        "{} was not formatted: it has syntax errors",
                        params.text_document.uri
                    ));
                }
                Ok(edits)
            }),
            method => Response::new_err(
                request.id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("the server does not handle `{method}`"),
            ),
        }
    }

    fn respond<R: lsp_types::request::Request>(
        &mut self,
        request: Request,
        handler: impl FnOnce(&mut Server, R::Params) -> Answer<R::Result>,
    ) -> Response {
        let params: R::Params = match parse(request.params) {
            Ok(params) => params,
            Err(problem) => return Response::new_err(request.id, ErrorCode::InvalidParams as i32, problem),
        };
        match handler(self, params) {
            Ok(result) => Response::new_ok(request.id, result),
            Err((code, message)) => Response::new_err(request.id, code as i32, message),
        }
    }

    fn document(&self, uri: &Url) -> Answer<&crate::documents::Document> {
        self.documents
            .get(uri)
            .ok_or_else(|| (ErrorCode::InvalidParams, format!("{uri} is not open")))
    }

    fn analysis_of(&mut self, uri: &Url) -> Answer<Arc<Analysis>> {
        self.document(uri)?;
        self.analysis(uri)
            .ok_or_else(|| failed("the document could not be analysed"))
    }

    /// The analysis of a document and the byte offset of a position in it.
    fn at(&mut self, position: &TextDocumentPositionParams) -> Answer<(Arc<Analysis>, u32)> {
        let analysis = self.analysis_of(&position.text_document.uri)?;
        let offset = analysis.offset(ROOT, position.position, self.encoding);
        Ok((analysis, offset))
    }

    /// The analyses that may read the file a declaration is in: the document's own, every
    /// open document's, and every schema of the document's project.
    fn related(&mut self, uri: &Url) -> Vec<Arc<Analysis>> {
        let mut analyses = Vec::new();
        let mut seen: HashSet<PathBuf> = HashSet::new();
        let mut uris: Vec<Url> = vec![uri.clone()];
        uris.extend(self.documents.keys().filter(|other| *other != uri).cloned());
        for open in &uris {
            if let Some(analysis) = self.analysis(open) {
                if let Some(document) = self.documents.get(open) {
                    seen.insert(document.path.clone());
                }
                analyses.push(analysis);
            }
        }
        let project = self
            .documents
            .get(uri)
            .filter(|document| document.is_file)
            .map(|document| document.path.clone())
            .and_then(|path| self.projects.for_file(&path));
        if let Some(project) = project {
            for path in project.schema_paths() {
                if seen.contains(&path) {
                    continue;
                }
                let text = read_file(&path, MAX_FILE_BYTES)
                    .ok()
                    .and_then(|bytes| String::from_utf8(bytes).ok());
                let (Some(text), Ok(file_uri)) = (text, Url::from_file_path(&path)) else {
                    continue;
                };
                analyses.push(Arc::new(analyze(&path, &file_uri, &text, &project.settings_for(&path))));
            }
        }
        analyses
    }

    /// Every place the declaration `key` is written, across the related analyses. A file
    /// open in the editor counts only from analyses of its current text.
    fn everywhere(&mut self, uri: &Url, key: &SymbolKey) -> Vec<Place> {
        let analyses = self.related(uri);
        let mut places = Vec::new();
        let mut seen = HashSet::new();
        for analysis in &analyses {
            let Some(symbol) = navigation::find(analysis, key) else {
                continue;
            };
            for (path, span, declaration) in navigation::occurrences(analysis, symbol) {
                let Some(place) = self.place(analysis, &path, span, declaration) else {
                    continue;
                };
                if seen.insert((path, span.start, span.end)) {
                    places.push(place);
                }
            }
        }
        places
    }

    fn place(&self, analysis: &Analysis, path: &PathBuf, span: Span, declaration: bool) -> Option<Place> {
        let open = self.documents.values().find(|document| &document.path == path);
        if let Some(document) = open
            && analysis.text(span.file) != document.text.as_str()
        {
            return None;
        }
        let uri = match open {
            Some(document) => document.uri.clone(),
            None => Url::from_file_path(path).ok()?,
        };
        Some(Place {
            uri,
            range: analysis.range(span, self.encoding),
            written: analysis
                .text(span.file)
                .get(span.start as usize..span.end as usize)?
                .to_string(),
            declaration,
        })
    }

    fn rename(&mut self, position: &TextDocumentPositionParams, new_name: &str) -> Answer<WorkspaceEdit> {
        let (analysis, offset) = self.at(position)?;
        let (symbol, _) = rename::target(&analysis, offset).map_err(failed)?;
        let key = navigation::key_of(&analysis, symbol).ok_or_else(|| failed("this name cannot be renamed"))?;
        for other in self.related(&position.text_document.uri) {
            if let Some(found) = navigation::find(&other, &key) {
                rename::check(&other.index, found, new_name).map_err(failed)?;
            }
        }
        let places = self.everywhere(&position.text_document.uri, &key);
        let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
        for place in places {
            let text = rename::replacement(&place.written, new_name);
            changes
                .entry(place.uri)
                .or_default()
                .push(TextEdit::new(place.range, text));
        }
        Ok(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        })
    }
}

/// One place a declaration is written.
struct Place {
    uri: Url,
    range: lsp_types::Range,
    written: String,
    declaration: bool,
}
