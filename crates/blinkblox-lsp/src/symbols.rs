//! The outline: every declaration of the document, scopes with their declarations inside,
//! structs and enums with their fields and members.

use blinkblox_schema::ast::{self, Item, StructMember, TypeExprKind, TypeKeyword};
use blinkblox_schema::source::Span;
use lsp_types::{DocumentSymbol, SymbolKind};

use crate::analysis::{Analysis, ROOT};
use crate::positions::Encoding;

pub fn document_symbols(analysis: &Analysis, encoding: Encoding) -> Vec<DocumentSymbol> {
    let Some(ast) = analysis.asts.get(&ROOT) else {
        return Vec::new();
    };
    let outline = Outline { analysis, encoding };
    ast.items.iter().filter_map(|item| outline.item(item)).collect()
}

struct Outline<'a> {
    analysis: &'a Analysis,
    encoding: Encoding,
}

impl Outline<'_> {
    #[allow(deprecated)] // `deprecated` is a required field of the type.
    fn symbol(
        &self,
        name: &str,
        detail: Option<String>,
        kind: SymbolKind,
        span: Span,
        selection: Span,
        children: Vec<DocumentSymbol>,
    ) -> DocumentSymbol {
        DocumentSymbol {
            name: if name.is_empty() {
                "_".to_string()
            } else {
                name.to_string()
            },
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: self.analysis.range(span, self.encoding),
            selection_range: self.analysis.range(selection, self.encoding),
            children: (!children.is_empty()).then_some(children),
        }
    }

    fn item(&self, item: &Item) -> Option<DocumentSymbol> {
        Some(match item {
            Item::Option(option) => self.symbol(
                &option.name.text,
                None,
                SymbolKind::CONSTANT,
                option.span,
                option.name.span,
                Vec::new(),
            ),
            Item::Import(import) => {
                let name = import
                    .alias
                    .as_ref()
                    .map_or(import.path.as_str(), |alias| alias.text.as_str());
                let selection = import.alias.as_ref().map_or(import.path_span, |alias| alias.span);
                self.symbol(
                    name,
                    Some(format!("import \"{}\"", import.path)),
                    SymbolKind::MODULE,
                    import.span,
                    selection,
                    Vec::new(),
                )
            }
            Item::Type(type_item) => {
                let kind = match type_item.keyword {
                    TypeKeyword::Struct => SymbolKind::STRUCT,
                    TypeKeyword::Enum => SymbolKind::ENUM,
                    TypeKeyword::Map => SymbolKind::OBJECT,
                    TypeKeyword::Set => SymbolKind::ENUM,
                    TypeKeyword::Type => SymbolKind::CLASS,
                };
                let children = self.members(&type_item.body);
                let detail = Some(type_item.keyword.keyword().to_string());
                self.symbol(
                    &type_item.name.text,
                    detail,
                    kind,
                    type_item.span,
                    type_item.name.span,
                    children,
                )
            }
            Item::Event(event) => self.symbol(
                &event.name.text,
                Some("event".into()),
                SymbolKind::EVENT,
                event.span,
                event.name.span,
                Vec::new(),
            ),
            Item::Function(function) => self.symbol(
                &function.name.text,
                Some("function".into()),
                SymbolKind::FUNCTION,
                function.span,
                function.name.span,
                Vec::new(),
            ),
            Item::Stream(stream) => self.symbol(
                &stream.name.text,
                Some("stream".into()),
                SymbolKind::EVENT,
                stream.span,
                stream.name.span,
                Vec::new(),
            ),
            Item::Scope(scope) => {
                let children = scope.items.iter().filter_map(|item| self.item(item)).collect();
                self.symbol(
                    &scope.name.text,
                    Some("scope".into()),
                    SymbolKind::NAMESPACE,
                    scope.span,
                    scope.name.span,
                    children,
                )
            }
        })
    }

    /// The fields, members or variants of a declaration's body.
    fn members(&self, body: &ast::TypeExpr) -> Vec<DocumentSymbol> {
        match &body.kind {
            TypeExprKind::Struct(members) => self.fields(members),
            TypeExprKind::UnitEnum(names) | TypeExprKind::Set(names) => names
                .iter()
                .map(|name| {
                    self.symbol(
                        &name.text,
                        None,
                        SymbolKind::ENUM_MEMBER,
                        name.span,
                        name.span,
                        Vec::new(),
                    )
                })
                .collect(),
            TypeExprKind::TaggedEnum { variants, .. } => variants
                .iter()
                .map(|variant| {
                    let children = self.fields(&variant.members);
                    self.symbol(
                        &variant.name.text,
                        None,
                        SymbolKind::ENUM_MEMBER,
                        variant.span,
                        variant.name.span,
                        children,
                    )
                })
                .collect(),
            TypeExprKind::Optional(inner) | TypeExprKind::Array { element: inner, .. } => self.members(inner),
            _ => Vec::new(),
        }
    }

    fn fields(&self, members: &[StructMember]) -> Vec<DocumentSymbol> {
        members
            .iter()
            .filter_map(|member| match member {
                StructMember::Field(field) => {
                    let children = self.members(&field.ty);
                    Some(self.symbol(
                        &field.name.text,
                        None,
                        SymbolKind::FIELD,
                        field.span,
                        field.name.span,
                        children,
                    ))
                }
                StructMember::Merge(_) => None,
            })
            .collect()
    }
}
