//! Replays the recorded Yioop vectors against the core (no PHP involved), for
//! every vector whose inputs are plain ints, lists of ints and strings.

use serde_json::Value;
use yioop_codec::php_semantics::num::Num;
use yioop_codec::codec::posting::{self, Format};
use yioop_codec::codec::{delta, modified9, queue_weight};
use yioop_codec::php_semantics::num;

fn vectors(format: Format, function: &str) -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/codec/vectors");
    let own = format!("{dir}/yioop-{}/{function}.jsonl", format.name());
    // The files both formats share are stored once, in common/.
    let path = if std::path::Path::new(&own).exists() { own } else { format!("{dir}/common/{function}.jsonl") };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn hex(v: &Value) -> Vec<u8> {
    let h = v["hex"].as_str().expect("a string value");
    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
}

fn to_hex(bytes: &[u8]) -> Value {
    let h: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({ "hex": h })
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().expect("a list").iter().map(|x| x.as_i64().expect("an int")).collect()
}

fn num(n: Num) -> Value {
    match n {
        Num::Int(i) => i.into(),
        Num::Float(f) => serde_json::json!({ "float": php_float(f) }),
    }
}

/// PHP's var_export of a float: shortest round-trip digits, `E+18` exponents.
fn php_float(f: f64) -> String {
    let s = format!("{f:e}");
    let (mantissa, exp) = s.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if (-5..15).contains(&exp) {
        return format!("{f:?}");
    }
    let mantissa = if mantissa.contains('.') { mantissa.to_string() } else { format!("{mantissa}.0") };
    format!("{mantissa}E{}{}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

const FORMATS: [Format; 2] = [Format::Y2015, Format::Y2019];

#[test]
fn unpack_list_modified9() {
    for f in FORMATS {
        for v in vectors(f, "unpackListModified9") {
            let mut out = Vec::new();
            modified9::decode_word(v["args"][0].as_i64().unwrap() as u32, &mut out);
            let got: Vec<i64> = out.iter().map(|&x| x as i64).collect();
            assert_eq!(got, ints(&v["ret"]), "{v}");
        }
    }
}

#[test]
fn doc_index_modified9() {
    for f in FORMATS {
        for v in vectors(f, "docIndexModified9") {
            let got = modified9::doc_index_of_word(v["args"][0].as_i64().unwrap());
            assert_eq!(got, v["ret"].as_i64().unwrap(), "{v}");
        }
    }
}

#[test]
fn encode_modified9() {
    for f in FORMATS {
        for v in vectors(f, "encodeModified9") {
            let mut out = Vec::new();
            modified9::encode(&ints(&v["args"][0]), &mut out).unwrap();
            assert_eq!(to_hex(&out), v["ret"], "{v}");
        }
    }
}

#[test]
fn decode_modified9_and_next_post_string() {
    for f in FORMATS {
        for v in vectors(f, "decodeModified9") {
            let input = hex(&v["args"][0]);
            let mut out = Vec::new();
            let next = modified9::decode(&input, v["args"][1].as_i64().unwrap(), &mut out);
            let got: Vec<i64> = out.iter().map(|&x| x as i64).collect();
            assert_eq!(got, ints(&v["ret"]), "{v}");
            assert_eq!(num(next), v["args_after"][1], "{v}");
        }
        for v in vectors(f, "nextPostString") {
            let input = hex(&v["args"][0]);
            let post = modified9::next_post_string(&input, v["args"][1].as_i64().unwrap());
            assert_eq!(to_hex(&input[post.bytes]), v["ret"], "{v}");
            assert_eq!(num(post.next_offset), v["args_after"][1], "{v}");
        }
    }
}

#[test]
fn pack_posting() {
    for f in FORMATS {
        for v in vectors(f, "packPosting") {
            let a = &v["args"];
            let doc = a[0].as_i64().unwrap();
            let got = posting::pack_posting(f, doc, &ints(&a[1]), a[2].as_bool().unwrap()).unwrap();
            assert_eq!(to_hex(&got), v["ret"], "{v}");
        }
    }
}

#[test]
fn unpack_posting() {
    for f in FORMATS {
        for v in vectors(f, "unpackPosting") {
            let a = &v["args"];
            let input = hex(&a[0]);
            let (p, next) = posting::unpack_posting(f, &input, a[1].as_i64().unwrap(), a[2].as_bool().unwrap());
            let doc = p.doc_index.map_or(Value::Null, Value::from);
            assert_eq!(serde_json::json!([doc, p.positions]), v["ret"], "{v}");
            assert_eq!(num(next), v["args_after"][1], "{v}");
        }
    }
}

#[test]
fn add_doc_index_postings() {
    for f in FORMATS {
        for v in vectors(f, "addDocIndexPostings") {
            let a = &v["args"];
            let got = posting::add_doc_index_postings(&hex(&a[0]), a[1].as_i64().unwrap()).unwrap();
            assert_eq!(to_hex(&got), v["ret"], "{v}");
        }
    }
}

#[test]
fn delta_lists() {
    for f in FORMATS {
        for v in vectors(f, "deltaList") {
            assert_eq!(delta::delta_list(&ints(&v["args"][0])).unwrap(), ints(&v["ret"]), "{v}");
        }
        for v in vectors(f, "deDeltaList") {
            let Some(list) = v["args"][0].as_array() else { continue }; // maps: PHP layer
            let mut nums: Vec<Num> = list.iter().map(|x| Num::Int(x.as_i64().unwrap())).collect();
            let mut plain = ints(&v["args"][0]);
            let from = delta::de_delta_list(&mut plain).err().unwrap_or(plain.len());
            nums.iter_mut().zip(&plain).for_each(|(n, &p)| *n = Num::Int(p));
            delta::de_delta_nums_from(&mut nums, from);
            let got: Vec<Value> = nums.into_iter().map(num).collect();
            assert_eq!(Value::from(got), v["args_after"][0], "{v}");
        }
    }
}

#[test]
fn unpack_int() {
    for f in FORMATS {
        for v in vectors(f, "unpackInt") {
            if v["args"][0].get("hex").is_none() {
                continue; // non-strings give false: PHP layer
            }
            assert_eq!(num::unpack_int(&hex(&v["args"][0])), v["ret"].as_i64().unwrap(), "{v}");
        }
    }
}

#[test]
fn queue_weights() {
    for v in vectors(Format::Y2019, "adjustWeightCallback") {
        let a = &v["args"];
        let got = queue_weight::adjust(a[0].as_i64().unwrap(), a[1].as_i64().unwrap());
        assert_eq!(got, v["ret"].as_i64().unwrap(), "{v}");
    }
    for v in vectors(Format::Y2019, "encodeQueueWeightInfo") {
        let a = &v["args"];
        if a[2] != serde_json::json!({"hex": "6164"}) {
            continue; // other crawl orders pass depth through: PHP layer
        }
        let got = queue_weight::encode(a[0].as_i64().unwrap(), a[1].as_i64().unwrap());
        assert_eq!(got, v["ret"].as_i64().unwrap(), "{v}");
    }
}
