//! Function handlers without ext-php-rs's per-call wrapper, for the calls a
//! query makes once per posting. The wrapper's zend_try (a setjmp) and
//! panic trampoline cost about 200 instructions a call, as much as
//! decoding a posting. Here arguments are read straight from the call frame
//! and a panic is still caught and turned into a PHP Error, never unwound
//! into PHP.

use crate::php::runtime::convert::{type_error, type_name, Fallible};
use ext_php_rs::args::Arg;
use ext_php_rs::builders::{FunctionBuilder, ModuleBuilder};
use ext_php_rs::exception::PhpException;
use ext_php_rs::ffi::zend_wrong_parameters_count_error;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::{ce, ExecuteData};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The one way a PHP function is declared here: `static $sig`, its name
/// and parameters as the stub declares them, and `$handler`, which runs
/// `$body` on the call's [`Args`] and hands PHP its `Fallible<Zval>`.
/// Register the pair with [`register`].
macro_rules! php_function {
    ($sig:ident, $handler:ident, $name:expr, [$($param:expr),* $(,)?], $returns:expr, |$args:ident| $body:expr) => {
        static $sig: $crate::php::runtime::function::Signature =
            $crate::php::runtime::function::Signature { name: $name, params: &[$($param),*], returns: $returns };
        extern "C" fn $handler(ex: &mut ::ext_php_rs::zend::ExecuteData, retval: &mut ::ext_php_rs::types::Zval) {
            $crate::php::runtime::function::call(ex, retval, &$sig, |$args| $body);
        }
    };
}

/// Adds each declared function to the module.
pub fn register<'a>(module: ModuleBuilder<'a>, functions: &[(&'static Signature, Handler)]) -> ModuleBuilder<'a> {
    functions.iter().fold(module, |module, &(signature, handler)| module.function(signature.function(handler)))
}

/// The most parameters any of these functions has.
const MAX_ARGS: usize = 9;

pub type Handler = extern "C" fn(&mut ExecuteData, &mut Zval);

/// A parameter as PHP's reflection shows it.
pub enum Param {
    Value(&'static str),
    Reference(&'static str),
    /// An optional bool with its default, as PHP source (`"true"`).
    Bool(&'static str, &'static str),
    /// An optional int with its default, as PHP source (`"-1"`).
    Int(&'static str, &'static str),
    /// An optional parameter of any type with its default (`"[]"`).
    Optional(&'static str, &'static str),
}

impl Param {
    fn name(&self) -> &'static str {
        match *self {
            Param::Value(n) | Param::Reference(n) | Param::Bool(n, _) | Param::Int(n, _) | Param::Optional(n, _) => n,
        }
    }

    fn is_required(&self) -> bool {
        matches!(self, Param::Value(_) | Param::Reference(_))
    }

    fn arg(&self) -> Arg<'static> {
        match *self {
            Param::Value(name) => Arg::new(name, DataType::Mixed),
            Param::Reference(name) => Arg::new(name, DataType::Mixed).as_ref(),
            Param::Bool(name, default) => Arg::new(name, DataType::Bool).default(default),
            Param::Int(name, default) => Arg::new(name, DataType::Long).default(default),
            Param::Optional(name, default) => Arg::new(name, DataType::Mixed).default(default),
        }
    }
}

/// A function's name and parameters, for its entry and its argument checks.
pub struct Signature {
    pub name: &'static str,
    pub params: &'static [Param],
    pub returns: DataType,
}

impl Signature {
    fn required(&self) -> usize {
        self.params.iter().filter(|p| p.is_required()).count()
    }

    /// The function entry to register.
    pub fn function(&'static self, handler: Handler) -> FunctionBuilder<'static> {
        self.function_named(self.name.to_string(), handler)
    }

    /// The function entry under another name (a namespaced alias).
    pub fn function_named(&'static self, name: String, handler: Handler) -> FunctionBuilder<'static> {
        let builder = self.params.iter().fold(FunctionBuilder::new(name, handler), |b, p| b.arg(p.arg()));
        builder.required_args(self.required()).returns(self.returns, false, false)
    }
}

/// The arguments of one call.
pub struct Args<'a> {
    signature: &'static Signature,
    frame: *const ExecuteData,
    slots: [Option<&'a mut Zval>; MAX_ARGS],
}

impl<'a> Args<'a> {
    /// The call's frame, for a function that looks at its caller.
    pub fn frame(&self) -> &ExecuteData {
        unsafe { &*self.frame }
    }

    /// Required argument `i` (from 0) as passed: for a by-reference
    /// parameter, the reference (`dereference_mut` reaches the variable).
    pub fn take(&mut self, i: usize) -> &'a mut Zval {
        self.slots[i].take().expect("required arguments are checked before the body runs")
    }

    /// Argument `i` as passed, without taking it: for looking at it again
    /// after the body (null if absent or taken). Valid for the call.
    pub fn pointer(&self, i: usize) -> *mut Zval {
        self.slots[i].as_deref().map_or(std::ptr::null_mut(), |z| std::ptr::from_ref(z).cast_mut())
    }

    /// Argument `i` as passed, if it was (optional ones may not be).
    pub fn take_optional(&mut self, i: usize) -> Option<&'a mut Zval> {
        self.slots[i].take()
    }

    /// The first `N` arguments, all required values, references followed.
    pub fn values<const N: usize>(&mut self) -> [&'a Zval; N] {
        std::array::from_fn(|i| &*self.take(i).dereference())
    }

    fn optional(&self, i: usize) -> Option<&Zval> {
        self.slots[i].as_deref().map(Zval::dereference)
    }

    /// A flag parameter, read as Yioop's `if ($flag)` reads it (PHP's
    /// truthiness, arrays and objects included); its default when left out.
    pub fn flag(&self, i: usize, default: bool) -> bool {
        self.optional(i).map_or(default, Zval::coerce_to_bool)
    }

    /// An `int` parameter as PHP coerces it; its default when left out.
    pub fn int(&self, i: usize, default: i64) -> Fallible<i64> {
        let Some(value) = self.optional(i) else { return Ok(default) };
        value.coerce_to_long().ok_or_else(|| self.wrong_type(i, "int", value))
    }

    fn wrong_type(&self, i: usize, expected: &str, value: &Zval) -> PhpException {
        let signature = self.signature;
        type_error(format!(
            "{}(): Argument #{} (${}) must be of type {expected}, {} given",
            signature.name,
            i + 1,
            signature.params[i].name(),
            type_name(value)
        ))
    }
}

/// Runs a handler body: checks the argument count as PHP's own functions
/// do, hands over the arguments, and sets the return value or throws.
pub fn call(
    ex: &mut ExecuteData,
    retval: &mut Zval,
    signature: &'static Signature,
    body: impl FnOnce(&mut Args) -> Fallible<Zval>,
) {
    let count = unsafe { ex.This.u2.num_args } as usize;
    let (required, max) = (signature.required(), signature.params.len());
    if count < required || count > max {
        // Throws PHP's ArgumentCountError with its usual message.
        unsafe { zend_wrong_parameters_count_error(required as u32, max as u32) };
        return;
    }
    let mut slots: [Option<&mut Zval>; MAX_ARGS] = Default::default();
    for (i, slot) in slots.iter_mut().enumerate().take(count) {
        *slot = unsafe { ex.zend_call_arg(i) };
    }
    let frame: *const ExecuteData = ex;
    let mut args = Args { signature, frame, slots };
    match catch_unwind(AssertUnwindSafe(|| body(&mut args))) {
        // PHP hands internal functions a null return slot (ZVAL_NULL in
        // its call opcodes): nothing to drop, so the value is written over it.
        Ok(Ok(value)) => unsafe { std::ptr::write(retval, value) },
        Ok(Err(exception)) => {
            let _ = exception.throw();
        }
        Err(_) => {
            let message = format!("{}(): internal error in the yioop extension", signature.name);
            let _ = PhpException::new(message, 0, ce::error()).throw();
        }
    }
}
