//! Paths emitted in two forms, one for natively compiled code and one for interpreted
//! code, picked at run time by the module's `Interpreted` (prelude `DetectInterpreted`,
//! timed once, on first use). Readers and writers track which branch they are emitting
//! into, so a two-form path nested inside an already chosen branch emits only that
//! branch's form instead of testing `Interpreted` again for every element.

use super::builder::CodeBuilder;

/// Opens the branch of a reader or writer's interpreted form.
pub const IF_INTERPRETED: &str = "if Interpreted or (Interpreted == nil and DetectInterpreted()) then";

/// Which form the code being emitted belongs to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Form {
    /// Outside both branches: a two-form path emits both, under [`IF_INTERPRETED`].
    #[default]
    Unchosen,
    Interpreted,
    Native,
}

/// An emitter (reader or writer) that knows which form it is emitting.
pub trait TwoForms: Sized {
    fn form_mut(&mut self) -> &mut Form;
    fn builder(&mut self) -> &mut CodeBuilder;

    /// Emits `emit` for each form still open: once when an enclosing path has chosen,
    /// otherwise twice, under `IF_INTERPRETED` and in its `else`, with the form set while
    /// each runs.
    fn in_each_form(&mut self, mut emit: impl FnMut(&mut Self)) {
        if *self.form_mut() != Form::Unchosen {
            emit(self);
            return;
        }
        self.builder().open(IF_INTERPRETED);
        *self.form_mut() = Form::Interpreted;
        emit(self);
        self.builder().middle("else");
        *self.form_mut() = Form::Native;
        emit(self);
        *self.form_mut() = Form::Unchosen;
        self.builder().close("end");
    }
}
