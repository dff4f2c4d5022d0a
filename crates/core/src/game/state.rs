//! Reading the protocol's JSON: a text with a duplicate key is refused (serde_json's own
//! `Value` would keep the last one silently), and the STATE fields every game shares (those
//! [`super::Json::state_json`] writes before the board) are read and range-checked once for
//! both families, which then read their board fields and check what depends on the position.

use super::Player;
use crate::limits::{excerpt, LIMITS};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Parses JSON text, refusing an object that gives a key twice (naming the key).
pub fn parse_json(text: &str) -> Result<Value, serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = reader.deserialize_any(UniqueKeys)?;
    reader.end()?;
    Ok(value)
}

/// Builds a `Value` as serde_json does, but with each object's keys checked for repeats.
struct UniqueKeys;

impl<'de> Visitor<'de> for UniqueKeys {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(x.into())
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(s.into())
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(s.into())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Unique)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "duplicate key `{}`",
                    excerpt(&key)
                )));
            }
            let value = map.next_value_seed(Unique)?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

/// The nested values of arrays and objects, checked as the outer one is.
struct Unique;

impl<'de> de::DeserializeSeed<'de> for Unique {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(UniqueKeys)
    }
}

/// The phases a STATE names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseName {
    Move,
    Roll,
    Over,
}

impl PhaseName {
    const ALL: [PhaseName; 3] = [PhaseName::Move, PhaseName::Roll, PhaseName::Over];

    /// The phase as a STATE writes it (as [`super::Phase::name`] does).
    pub fn name(self) -> &'static str {
        match self {
            PhaseName::Move => "move",
            PhaseName::Roll => "roll",
            PhaseName::Over => "over",
        }
    }
}

/// `result` as given: the families recompute the result from the position, keeping only what
/// the position cannot say (which reason, which winner when a rule holds for both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultFields<'a> {
    pub winner: Option<Player>,
    pub reason: Option<&'a str>,
}

/// `match` as given; what is left out the family supplies (or requires).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchFields<'a> {
    pub game: Option<u32>,
    pub points: Option<[i32; 2]>,
    /// The rules of the game played (a tables match of several games).
    pub rules: Option<&'a str>,
}

/// The fields of a STATE object every game shares, each of the right type and range; whether
/// they fit the position is the family's to check.
#[derive(Clone, Copy, Debug)]
pub struct StateFields<'a> {
    /// The whole object, where the family finds its board fields.
    pub object: &'a Map<String, Value>,
    /// `None` when left out, `Some(None)` when `null` (a game over).
    pub to_move: Option<Option<Player>>,
    pub phase: Option<PhaseName>,
    /// 0 when left out.
    pub ply: u32,
    pub starter: Option<Player>,
    pub result: Option<ResultFields<'a>>,
    pub match_: Option<MatchFields<'a>>,
}

/// Match points above any a match can reach (its target is at most `LIMITS.match_points`),
/// low enough that adding a game's score cannot overflow.
const MAX_MATCH_POINTS: u64 = 1_000_000;

impl<'a> StateFields<'a> {
    /// Reads the shared fields of `state`, with `ply` at most `max_ply`; `null` is as if left
    /// out, except in `to_move`.
    pub fn read(state: &'a Value, max_ply: u32) -> Result<StateFields<'a>, String> {
        let fields = state.as_object().ok_or("a state is a JSON object")?;
        let given = |key: &str| fields.get(key).filter(|v| !v.is_null());
        let to_move = match fields.get("to_move") {
            None => None,
            Some(Value::Null) => Some(None),
            Some(v) => Some(Some(player(v).ok_or_else(|| {
                format!("`to_move` is 0, 1 or null, got {}", shown(v))
            })?)),
        };
        let phase = given("phase")
            .map(|v| {
                PhaseName::ALL
                    .into_iter()
                    .find(|p| v.as_str() == Some(p.name()))
                    .ok_or_else(|| {
                        format!(
                            "`phase` is \"move\", \"roll\" or \"over\", got {}",
                            shown(v)
                        )
                    })
            })
            .transpose()?;
        let ply = given("ply")
            .map(|v| {
                v.as_u64()
                    .filter(|&p| p <= u64::from(max_ply))
                    .map(|p| p as u32)
                    .ok_or_else(|| format!("`ply` is a count 0 to {max_ply}"))
            })
            .transpose()?
            .unwrap_or(0);
        let starter = given("starter")
            .map(|v| player(v).ok_or_else(|| format!("`starter` is 0 or 1, got {}", shown(v))))
            .transpose()?;
        let result = given("result").map(read_result).transpose()?;
        let match_ = given("match").map(read_match).transpose()?;
        Ok(StateFields {
            object: fields,
            to_move,
            phase,
            ply,
            starter,
            result,
            match_,
        })
    }
}

fn player(v: &Value) -> Option<Player> {
    v.as_u64().filter(|&p| p < 2).map(|p| p as Player)
}

/// A value quoted in a message, cut short.
fn shown(v: &Value) -> String {
    excerpt(&v.to_string())
}

fn object<'a>(v: &'a Value, field: &str, form: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("`{field}` is null or {form}, got {}", shown(v)))
}

fn read_result(v: &Value) -> Result<ResultFields<'_>, String> {
    let fields = object(
        v,
        "result",
        "{\"winner\":W,\"scores\":[s0,s1],\"reason\":R}",
    )?;
    let given = |key: &str| fields.get(key).filter(|v| !v.is_null());
    let winner = given("winner")
        .map(|w| {
            player(w).ok_or_else(|| format!("`result.winner` is 0, 1 or null, got {}", shown(w)))
        })
        .transpose()?;
    let reason = given("reason")
        .map(|r| {
            r.as_str()
                .ok_or_else(|| format!("`result.reason` is text, got {}", shown(r)))
        })
        .transpose()?;
    Ok(ResultFields { winner, reason })
}

fn read_match(v: &Value) -> Result<MatchFields<'_>, String> {
    let fields = object(v, "match", "{\"game\":N,\"points\":[p0,p1]}")?;
    let given = |key: &str| fields.get(key).filter(|v| !v.is_null());
    let max = LIMITS.games_per_match;
    let game = given("game")
        .map(|g| {
            g.as_u64()
                .filter(|g| (1..=u64::from(max)).contains(g))
                .map(|g| g as u32)
                .ok_or_else(|| format!("`match.game` is a game number 1 to {max}"))
        })
        .transpose()?;
    let points = given("points")
        .map(|p| {
            let counts: Option<Vec<i32>> = p.as_array().filter(|a| a.len() == 2).and_then(|a| {
                a.iter()
                    .map(|x| {
                        x.as_u64()
                            .filter(|&x| x <= MAX_MATCH_POINTS)
                            .map(|x| x as i32)
                    })
                    .collect()
            });
            counts.map(|c| [c[0], c[1]]).ok_or_else(|| {
                format!(
                    "`match.points` is two counts 0 to {MAX_MATCH_POINTS}, got {}",
                    shown(p)
                )
            })
        })
        .transpose()?;
    let rules = given("rules")
        .map(|r| {
            r.as_str()
                .ok_or_else(|| format!("`match.rules` is a rules name, got {}", shown(r)))
        })
        .transpose()?;
    Ok(MatchFields {
        game,
        points,
        rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parse_json_reads_what_serde_json_reads_and_refuses_a_repeated_key() {
        let text = r#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"c":18446744073709551615}"#;
        let strict = parse_json(text).unwrap();
        assert_eq!(strict, serde_json::from_str::<Value>(text).unwrap());
        let nested = parse_json(r#"{"a":[{"b":1,"b":2}]}"#).unwrap_err();
        assert!(nested.to_string().contains("duplicate key `b`"), "{nested}");
        assert!(parse_json("{} {}").is_err(), "one value a text");
    }

    #[test]
    fn the_shared_fields_are_read_with_defaults_and_ranges() {
        let written = json!({"to_move": null, "phase": "over", "ply": 7, "starter": 1,
            "result": {"winner": 0, "scores": [25, 23], "reason": "captured 25"},
            "match": {"game": 2, "points": [3, 4], "over": false, "winner": null}});
        let s = StateFields::read(&written, 10).unwrap();
        assert_eq!(s.to_move, Some(None));
        assert_eq!(s.phase, Some(PhaseName::Over));
        assert_eq!((s.ply, s.starter), (7, Some(1)));
        let result = ResultFields {
            winner: Some(0),
            reason: Some("captured 25"),
        };
        assert_eq!(s.result, Some(result));
        let standing = MatchFields {
            game: Some(2),
            points: Some([3, 4]),
            rules: None,
        };
        assert_eq!(s.match_, Some(standing));
        let empty = json!({});
        let bare = StateFields::read(&empty, 10).unwrap();
        assert_eq!((bare.to_move, bare.phase, bare.ply), (None, None, 0));
        for (bad, says) in [
            (json!([]), "a state is a JSON object"),
            (json!({"to_move": 2}), "`to_move` is 0, 1 or null, got 2"),
            (
                json!({"phase": "wait"}),
                "`phase` is \"move\", \"roll\" or \"over\"",
            ),
            (json!({"ply": 11}), "`ply` is a count 0 to 10"),
            (json!({"starter": "0"}), "`starter` is 0 or 1"),
            (
                json!({"result": {"winner": 2}}),
                "`result.winner` is 0, 1 or null",
            ),
            (
                json!({"match": {"game": 0}}),
                "`match.game` is a game number 1 to",
            ),
            (
                json!({"match": {"points": [1]}}),
                "`match.points` is two counts",
            ),
        ] {
            let error = StateFields::read(&bad, 10).unwrap_err();
            assert!(error.starts_with(says), "{bad}: {error}");
        }
    }
}
