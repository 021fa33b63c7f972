//! Utility.php's `deltaList` and `deDeltaList`.

use super::args::*;
use crate::php::runtime::convert::{
    int_list, num_list, num_zval, operand,
    type_error, type_name, Fallible, Values,
};
use crate::php::runtime::function::{Handler, Param, Signature};
use crate::php::runtime::zval::{array_zval, long_of, long_zval};
use crate::php::runtime::arrays;
use crate::php::settings;
use crate::php_semantics::num::{self, Num};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendHashTable, Zval};

php_function!(DELTA_LIST, delta_list_handler, "deltaList", [Param::Value("list")], DataType::Array, |args| {
    let [list] = args.values();
    delta_list(list)
});

pub(super) fn delta_list(list: &Zval) -> Fallible<Zval> {
    let Some(list) = iterable_arg(list, "deltaList", "list")? else {
        return Ok(int_list(std::iter::empty()));
    };
    if let Some(deltas) = arrays::slots(list).and_then(int_deltas) {
        return Ok(deltas);
    }
    Ok(match delta_values(list)? {
        Values::Ints(deltas) => int_list(deltas.into_iter()),
        Values::Nums(deltas) => num_list(&deltas),
    })
}

php_function!(DE_DELTA_LIST, de_delta_list_handler, "deDeltaList", [Param::Reference("delta_list")], DataType::Void, |args| {
    de_delta_list(args.take(0).dereference_mut()).map(|()| Zval::null())
});

pub(super) fn de_delta_list(delta_list: &mut Zval) -> Fallible<()> {
    if let Some(summed) = delta_list.array().and_then(summed_copy_of_shared_list) {
        *delta_list = summed;
        return Ok(());
    }
    let type_name = type_name(delta_list);
    let Some(array) = arrays::separate(delta_list) else {
        return Err(type_error(format!(
            "count(): Argument #1 ($value) must be of type Countable|array, {type_name} given"
        )));
    };
    de_delta_sequential(array)
}


// ---- deDeltaList ----

/// A shared list of ints must be copied before it is written (PHP's
/// copy-on-write); building the summed list as that copy reads and writes
/// it once instead of twice. None if the list is not shared, not all ints,
/// or a sum overflows: the in-place path handles those.
pub(super) fn summed_copy_of_shared_list(array: &ZendHashTable) -> Option<Zval> {
    if !arrays::is_shared(array) || settings::current().dispatch.sums_on_device(array.len()) {
        return None;
    }
    let slots = arrays::slots(array)?;
    let (mut sum, mut exact) = (0i64, true);
    let list = arrays::list_of(slots.len(), |i| {
        // Element 0 stays as it is; each later one becomes itself plus the sum so far.
        let value = long_of(&slots[i]);
        let next = if i == 0 { value } else { value.and_then(|v| v.checked_add(sum)) };
        match next {
            Some(next) if exact => sum = next,
            _ => exact = false,
        }
        long_zval(sum)
    });
    exact.then(|| array_zval(list))
}

/// A list keyed 0..n-1: a prefix sum in place, finished in PHP numbers
/// from the first element that is not an int or whose sum overflows.
pub(super) fn de_delta_sequential(array: &mut ZendHashTable) -> Fallible<()> {
    let dispatch = settings::current().dispatch;
    let Some(slots) = arrays::slots_mut(array) else {
        return de_delta_by_key(array);
    };
    if dispatch.sums_on_device(slots.len()) {
        if let Some(mut ints) = slots.iter().map(long_of).collect::<Option<Vec<i64>>>() {
            if dispatch.de_delta(&mut ints).is_ok() {
                slots.iter_mut().zip(ints).for_each(|(slot, v)| arrays::set_long_in_place(slot, v));
                return Ok(());
            }
        }
    }
    let resume_at = de_delta_ints_in_place(slots);
    for i in resume_at..slots.len() {
        let sum = num::add(operand(&slots[i], "+")?, operand(&slots[i - 1], "+")?);
        slots[i] = num_zval(sum);
    }
    Ok(())
}

/// The int-only prefix sum, in place; returns where it had to stop (the
/// length if it did not).
pub(super) fn de_delta_ints_in_place(slots: &mut [Zval]) -> usize {
    let Some(mut sum) = slots.first().and_then(long_of) else { return 1 };
    let mut i = 1;
    while i < slots.len() {
        if i % arrays::SLOTS_PER_LINE == 0 {
            arrays::prefetch_ahead(slots, i);
        }
        match long_of(&slots[i]).and_then(|v| v.checked_add(sum)) {
            Some(next) => {
                sum = next;
                arrays::set_long_in_place(&mut slots[i], next);
            }
            None => return i,
        }
        i += 1;
    }
    slots.len()
}

/// Yioop's loop on any other array: `$a[$i] += $a[$i - 1]` for i from 1 to
/// count - 1, where a missing key reads as null (PHP warns; we stay quiet)
/// and is then created at the end.
pub(super) fn de_delta_by_key(array: &mut ZendHashTable) -> Fallible<()> {
    let count = array.len() as i64;
    for i in 1..count {
        let previous = key_operand(array, i - 1)?;
        let current = key_operand(array, i)?;
        let sum = num_zval(num::add(current, previous));
        array
            .insert_at_index(i, sum)
            .map_err(|e| type_error(format!("deDeltaList(): {e}")))?;
    }
    Ok(())
}

pub(super) fn key_operand(array: &ZendHashTable, key: i64) -> Fallible<Num> {
    array.get_index(key).map_or(Ok(Num::Int(0)), |v| operand(v, "+"))
}

/// The functions this file declares, registered globally.
pub(super) static FUNCTIONS: &[(&Signature, Handler)] = &[
    (&DELTA_LIST, delta_list_handler),
    (&DE_DELTA_LIST, de_delta_list_handler),
];
