//! Every php-src (and C library) function, global and constant the bindings
//! use that ext-php-rs does not declare, declared once. Constants are
//! php-src's (Zend/zend_types.h, zend_hash.h, zend_compile.h,
//! ext/standard/php_filestat.h, main/php_streams.h).

use ext_php_rs::ffi::{_php_stream, php_stream_ops, zend_class_entry, zend_long, zend_object, zend_string, zend_ulong, zval, HashTable};
use std::ffi::{c_char, c_int, c_void};

extern "C" {
    pub fn zend_clear_exception();
    // Hash tables.
    pub fn _zend_hash_init(ht: *mut HashTable, size: u32, destructor: Option<unsafe extern "C" fn(*mut zval)>, persistent: bool);
    pub fn zend_hash_destroy(ht: *mut HashTable);
    pub fn zend_hash_real_init_mixed(ht: *mut HashTable);
    pub fn zend_hash_real_init_packed(ht: *mut HashTable);
    pub fn zend_new_pair(first: *mut zval, second: *mut zval) -> *mut HashTable;
    pub fn zend_hash_lookup(ht: *mut HashTable, key: *mut zend_string) -> *mut zval;
    pub fn zend_hash_func(str: *const c_char, len: usize) -> u64;
    pub fn zend_string_hash_func(s: *mut zend_string) -> u64;

    // Weak maps keyed by objects.
    pub fn zend_weakrefs_hash_add(ht: *mut HashTable, key: *mut zend_object, data: *mut zval) -> *mut zval;
    pub fn zend_weakrefs_hash_del(ht: *mut HashTable, key: *mut zend_object) -> c_int;

    // Interned strings.
    pub static zend_empty_string: *mut zend_string;
    pub static zend_one_char_string: [*mut zend_string; 256];

    // Errors: a callback told of every error raised, handled or not.
    pub fn zend_observer_error_register(callback: unsafe extern "C" fn(c_int, *mut zend_string, u32, *mut zend_string));

    // INI settings and constants.
    pub fn zend_ini_long(name: *const c_char, name_length: usize, orig: i32) -> i64;
    pub fn zend_ini_string_ex(name: *const c_char, len: usize, orig: c_int, exists: *mut bool) -> *mut c_char;
    pub fn zend_unregister_ini_entries(module_number: c_int);
    pub fn zend_get_constant_str(name: *const c_char, name_len: usize) -> *mut zval;

    // Numbers and numeric strings, as PHP reads and prints them.
    pub fn _php_math_number_format(d: f64, dec: c_int, dec_point: c_char, thousand_sep: c_char) -> *mut zend_string;
    pub fn _is_numeric_string_ex(str: *const c_char, length: usize, lval: *mut zend_long, dval: *mut f64, allow_errors: bool, oflow_info: *mut c_int, trailing_data: *mut bool) -> u8;
    pub fn _zend_handle_numeric_str_ex(key: *const c_char, length: usize, idx: *mut zend_ulong) -> bool;

    // Properties, instance and static.
    pub fn zend_read_property_ex(scope: *mut zend_class_entry, object: *mut zend_object, name: *mut zend_string, silent: bool, rv: *mut zval) -> *mut zval;
    pub fn zend_update_property_ex(scope: *mut zend_class_entry, object: *mut zend_object, name: *mut zend_string, value: *mut zval);
    pub fn zend_read_static_property_ex(scope: *mut zend_class_entry, name: *mut zend_string, silent: bool) -> *mut zval;
    pub fn zend_update_static_property_ex(scope: *mut zend_class_entry, name: *mut zend_string, value: *mut zval) -> i32;

    // PHP's operators, as `.=`, `++` and `+` run them.
    pub fn concat_function(result: *mut zval, op1: *mut zval, op2: *mut zval) -> i32;
    pub fn increment_function(op: *mut zval) -> i32;
    pub fn add_function(result: *mut zval, op1: *mut zval, op2: *mut zval) -> i32;
    pub fn mul_function(result: *mut zval, op1: *mut zval, op2: *mut zval) -> i32;
    pub fn div_function(result: *mut zval, op1: *mut zval, op2: *mut zval) -> i32;
    /// `$a <=> $b` as PHP's loose comparisons (`==`, `!=`) run it.
    pub fn zend_compare(op1: *mut zval, op2: *mut zval) -> c_int;

    // Files and streams.
    pub fn php_stat(filename: *mut zend_string, kind: c_int, return_value: *mut zval);
    pub fn _php_stream_fopen_from_fd(fd: c_int, mode: *const c_char, persistent_id: *const c_char, zero_position: bool) -> *mut c_void;
    pub fn php_file_le_stream() -> i32;
    pub fn php_file_le_pstream() -> i32;
    pub fn _php_stream_cast(stream: *mut _php_stream, castas: i32, ret: *mut *mut c_void, show_err: i32) -> i32;
    pub fn _php_stream_seek(stream: *mut _php_stream, offset: i64, whence: i32) -> i32;
    pub static mut php_stream_stdio_ops: php_stream_ops;

    // The C library's ctype, as PHP's ctype_* and strtolower see it.
    pub fn isalpha(c: c_int) -> c_int;
    pub fn isalnum(c: c_int) -> c_int;
    pub fn isspace(c: c_int) -> c_int;
    pub fn tolower(c: c_int) -> c_int;
    pub fn toupper(c: c_int) -> c_int;
    pub fn setlocale(category: c_int, locale: *const c_char) -> *mut c_char;
}

// A zval's type tag (`Z_TYPE`).
pub const IS_UNDEF: u8 = 0;
pub const IS_NULL: u8 = 1;
pub const IS_FALSE: u8 = 2;
pub const IS_TRUE: u8 = 3;
pub const IS_LONG: u8 = 4;
pub const IS_DOUBLE: u8 = 5;
pub const IS_STRING: u8 = 6;
pub const IS_ARRAY: u8 = 7;
pub const IS_OBJECT: u8 = 8;
pub const IS_RESOURCE: u8 = 9;
pub const IS_REFERENCE: u8 = 10;
pub const IS_PTR: u8 = 13;

// A zval's full type info: the tag and its flags.
const IS_TYPE_REFCOUNTED: u32 = 1 << 8;
const IS_TYPE_COLLECTABLE: u32 = 1 << 9;
pub const IS_ARRAY_EX: u32 = IS_ARRAY as u32 | IS_TYPE_REFCOUNTED | IS_TYPE_COLLECTABLE;
pub const IS_RESOURCE_EX: u32 = IS_RESOURCE as u32 | IS_TYPE_REFCOUNTED;
pub const IS_REFERENCE_EX: u32 = IS_REFERENCE as u32 | IS_TYPE_REFCOUNTED;

// A refcounted value's own type info (`GC_TYPE_INFO`).
const GC_NOT_COLLECTABLE: u32 = 1 << 4;
pub const GC_STRING: u32 = IS_STRING as u32 | GC_NOT_COLLECTABLE;
pub const GC_REFERENCE: u32 = IS_REFERENCE as u32 | GC_NOT_COLLECTABLE;

// Hash table flags.
pub const HASH_FLAG_PACKED: u32 = 1 << 2;
pub const HASH_FLAG_UNINITIALIZED: u32 = 1 << 3;

/// An object's key in a weak map is its address shifted by this.
pub const ZEND_MM_ALIGNMENT_LOG2: u32 = 3;
pub const ZEND_USER_FUNCTION: u8 = 2;
pub const ZEND_ACC_PUBLIC: u32 = 1;
pub const ZEND_FETCH_CLASS_NO_AUTOLOAD: u32 = 0x80;
// Opcodes (Zend/zend_vm_opcodes.h) and an operand's kind (zend_compile.h).
pub const ZEND_RETURN: u8 = 62;
pub const ZEND_RECV: u8 = 63;
pub const IS_CV: u8 = 1 << 3;
pub const PHP_STREAM_FLAG_NO_SEEK: u32 = 0x1;
/// What `filesize` and `file_exists` ask `php_stat`.
pub const FS_SIZE: c_int = 2;
pub const FS_EXISTS: c_int = 15;
pub const LC_CTYPE: c_int = 0;
