//! Delta lists: Yioop's `deltaList` and `deDeltaList`, on ints with PHP's
//! overflow into float. The int-only fast paths report where they would
//! overflow so the caller can finish on [`Num`]s.

use crate::php_semantics::num::{self, Num};

/// `deltaList` on ints; None if some difference overflows an int.
pub fn delta_list(list: &[i64]) -> Option<Vec<i64>> {
    let mut out = Vec::with_capacity(list.len());
    let mut last = 0i64;
    for &elt in list {
        out.push(elt.checked_sub(last)?);
        last = elt;
    }
    Some(out)
}

/// `deltaList` on PHP numbers.
pub fn delta_list_nums(list: &[Num]) -> Vec<Num> {
    let mut last = Num::Int(0);
    list.iter()
        .map(|&elt| {
            let delta = num::sub(elt, last);
            last = elt;
            delta
        })
        .collect()
}

/// `deDeltaList` in place on ints. On overflow, returns the index whose sum
/// did not fit; elements before it are already summed, it and later ones
/// untouched, so [`de_delta_nums_from`] can take over there.
pub fn de_delta_list(list: &mut [i64]) -> Result<(), usize> {
    let Some((first, rest)) = list.split_first_mut() else { return Ok(()) };
    let mut sum = *first;
    // Blocks whose sums provably fit go without overflow checks: all
    // elements in 0..2^32 and a running sum below 2^62 leave room for far
    // more than a block's worth.
    const BLOCK: usize = 256;
    let mut done = 0;
    for block in rest.chunks_mut(BLOCK) {
        let small = block.iter().fold(0u64, |acc, &v| acc | v as u64) < 1 << 32;
        if small && (0..1 << 62).contains(&sum) {
            for v in block.iter_mut() {
                sum += *v;
                *v = sum;
            }
        } else {
            for (i, v) in block.iter_mut().enumerate() {
                sum = v.checked_add(sum).ok_or(1 + done + i)?;
                *v = sum;
            }
        }
        done += block.len();
    }
    Ok(())
}

/// `deDeltaList` in place on PHP numbers, starting at index `from`.
pub fn de_delta_nums_from(list: &mut [Num], from: usize) {
    for i in from.max(1)..list.len() {
        list[i] = num::add(list[i], list[i - 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_then_de_delta_is_identity() {
        let list = vec![3, 10, 10, 400, 90_000];
        let mut deltas = delta_list(&list).unwrap();
        assert_eq!(deltas, [3, 7, 0, 390, 89_600]);
        de_delta_list(&mut deltas).unwrap();
        assert_eq!(deltas, list);
    }

    #[test]
    fn de_delta_reports_the_overflowing_index() {
        let mut list = vec![i64::MAX - 5, 3, 10, 1];
        assert_eq!(de_delta_list(&mut list), Err(2));
        assert_eq!(list[..2], [i64::MAX - 5, i64::MAX - 2]);
        let mut nums: Vec<Num> = list.iter().map(|&v| Num::Int(v)).collect();
        de_delta_nums_from(&mut nums, 2);
        assert!(matches!(nums[2], Num::Float(_)) && matches!(nums[3], Num::Float(_)));
    }

    #[test]
    fn delta_list_overflow_goes_to_floats() {
        assert_eq!(delta_list(&[i64::MIN, i64::MAX]), None);
        let nums = delta_list_nums(&[Num::Int(i64::MIN), Num::Int(i64::MAX)]);
        assert_eq!(nums[1], Num::Float(i64::MAX as f64 - i64::MIN as f64));
    }
}
