//! The query form and the palette driven through `update` with scripted messages.

use crate::app::input::{Key, KeyCode, Modifiers};

use crate::app::fixtures::*;
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect, TableMsg, TerminalEffect, TimeMsg};
use crate::app::state::Field;
use crate::app::state::State;
use crate::app::update::start;
use crate::model::design::access_pattern::parse_patterns_file;
use crate::model::engine::{DoneOutcome, EngineEvent, Operation};

pub(crate) fn typed(text: &str) -> Vec<Msg> {
    text.chars().map(char).collect()
}

/// A table view with the demo items loaded and the builder open.
pub(crate) fn builder_open() -> State {
    builder_open_with(demo_info(), demo_items())
}

/// The builder open on a table described as `info` whose first scan loaded `items`.
pub(crate) fn builder_open_with(
    info: crate::model::design::schema::TableInfo,
    items: Vec<crate::model::item::value::Item>,
) -> State {
    let mut s = state();
    start(&mut s, Some("app".into()));
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info),
        })],
    );
    let id = s.table.as_ref().unwrap().view.read.as_ref().unwrap().id;
    send(&mut s, [page(id, 1, items, false)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let effects = send(&mut s, [char(':')]);
    assert!(
        effects.is_empty(),
        "opening the builder reads nothing: {effects:?}"
    );
    s
}

/// Esc that only closes the completion popup, if one is showing.
pub(crate) fn dismiss(s: &mut State) {
    if builder(s).completion.is_some() {
        send(s, [press(KeyCode::Esc)]);
    }
}

pub(crate) fn builder(s: &State) -> &crate::app::state::QueryForm {
    s.table.as_ref().unwrap().query_form().unwrap()
}

#[test]
fn completion_accepts_a_key_segment_as_far_as_its_keys_agree_then_runs() {
    let mut s = builder_open();
    send(&mut s, typed("USER#ce"));
    let c = builder(&s)
        .completion
        .clone()
        .expect("completions for USER#ce");
    assert_eq!(c.items, ["USER#celebrity"]);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).text(Field::Pk), "USER#celebrity");
    send(&mut s, [press(KeyCode::Tab)]); // to the operator
    assert_eq!(builder(&s).focus, Field::Op);
    send(&mut s, [press(KeyCode::Left)]); // (none) wraps round to begins_with
    let effects = send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::Sk);
    assert!(
        effects.is_empty(),
        "the collection is loaded: no sample request needed: {effects:?}"
    );
    send(&mut s, typed("O"));
    // Every order of the collection is in 202x: one Tab goes that far.
    assert_eq!(
        builder(&s).completion.as_ref().unwrap().items,
        ["ORDER#202"]
    );
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).text(Field::Sk), "ORDER#202");
    let next = builder(&s).completion.clone().unwrap().items;
    assert!(
        next.len() > 1 && next.iter().all(|i| i.len() > "ORDER#2025".len()),
        "{next:?}"
    );
    send(&mut s, [press(KeyCode::Esc)]); // close the popup, keep the builder
    assert!(builder(&s).completion.is_none());
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec.clone()),
            _ => None,
        })
        .expect("Enter runs the query");
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk = :pk AND begins_with(#sk, :sk)")
    );
    assert!(s.table.as_ref().unwrap().query_form().is_none());
    // History: reopening and pressing Up recalls it.
    send(&mut s, [char(':'), press(KeyCode::Up)]);
    assert_eq!(builder(&s).text(Field::Pk), "USER#celebrity");
    assert_eq!(builder(&s).text(Field::Sk), "ORDER#202");
}

#[test]
fn invalid_queries_cannot_be_sent() {
    let mut s = builder_open();
    // Index GSI1, then a between with reversed bounds.
    send(
        &mut s,
        [
            press(KeyCode::BackTab),
            press(KeyCode::Right),
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, typed("STATUS#SHIPPED"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    for _ in 0..6 {
        send(&mut s, [press(KeyCode::Right)]);
    }
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("b"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("a"));
    let err = builder(&s).check.clone().unwrap_err();
    assert_eq!(err.field, Field::Sk);
    assert!(err.message.contains("low <= high"), "{}", err.message);
    dismiss(&mut s);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Read(ReadEffect::Start { .. }))),
        "{effects:?}"
    );
    assert!(s.notice.as_ref().unwrap().error);
}

fn ctrl_key(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

/// The reads among `effects`.
fn reads(effects: &[Effect]) -> Vec<(u64, crate::model::engine::ReadSpec)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Read(ReadEffect::Start { id, spec }) => Some((*id, (**spec).clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_key_sample_is_read_only_on_ctrl_s_priced_first_logged_and_kept_for_the_session() {
    let mut s = builder_open();
    // Typing, completing and a pause in typing read nothing; the popup offers a priced sample.
    let mut effects = send(&mut s, typed("USER#z"));
    effects.extend(send(&mut s, [Msg::Time(TimeMsg::Debounced(u64::MAX))]));
    assert!(reads(&effects).is_empty(), "{effects:?}");
    let offer = builder(&s)
        .sample_offer
        .clone()
        .expect("a priced sample offer");
    assert!(offer.starts_with("Ctrl-S sample 100 keys · ≈ "), "{offer}");
    assert!(offer.ends_with(" RCU"), "{offer}");
    // Ctrl-S says its estimate and reads one keys-only page.
    let started = reads(&send(&mut s, [ctrl_key('s')]));
    let [(sample, spec)] = started.as_slice() else {
        panic!("one sample read: {started:?}");
    };
    assert_eq!(spec.operation, Operation::Scan);
    assert_eq!(
        (spec.page_size, spec.budget.max_pages),
        (Some(100), Some(1))
    );
    assert!(spec.projection.is_some(), "the key sample reads keys only");
    let notice = s.notice.clone().expect("the estimate, first").text;
    assert!(
        notice.starts_with("sampling 100 keys of 'app' · ≈ "),
        "{notice}"
    );
    // Its page: its keys complete, its capacity is logged, the store is untouched.
    let logged = s.log.len();
    let keys = vec![crate::model::item::value::Item::from_attrs(vec![(
        "PK".into(),
        crate::model::item::value::AttrValue::S("USER#zed".into()),
    )])];
    send(&mut s, [page(*sample, 1, keys, false)]);
    assert_eq!(s.log.len(), logged + 1);
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    assert!(
        store.collection_of("USER#zed").is_none(),
        "samples never reach the store"
    );
    assert_eq!(builder(&s).completion.as_ref().unwrap().items, ["USER#zed"]);
    assert!(builder(&s).sample_offer.is_none(), "sampled once");
    // Closed and opened again: the sample is the session's, nothing is read.
    send(&mut s, [press(KeyCode::Esc), press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().query_form().is_none());
    assert!(reads(&send(&mut s, [char(':')])).is_empty());
    assert!(reads(&send(&mut s, typed("USER#z"))).is_empty());
    assert_eq!(builder(&s).completion.as_ref().unwrap().items, ["USER#zed"]);
    assert!(
        reads(&send(&mut s, [ctrl_key('s')])).is_empty(),
        "already sampled"
    );
    // The sort keys of a typed partition: also only on Ctrl-S, as a keys-only Query.
    send(&mut s, typed("ed"));
    dismiss(&mut s);
    let moved = send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Left),
            press(KeyCode::Tab),
        ],
    );
    assert!(reads(&moved).is_empty(), "{moved:?}");
    assert_eq!(builder(&s).focus, Field::Sk);
    let started = reads(&send(&mut s, [ctrl_key('s')]));
    let [(_, spec)] = started.as_slice() else {
        panic!("one sort-key sample: {started:?}");
    };
    assert_eq!(spec.operation, Operation::Query);
    assert_eq!(spec.key_condition.as_deref(), Some("#kp = :pk"));
}

#[test]
fn raw_mode_and_copying_the_cli_command() {
    let mut s = builder_open();
    send(
        &mut s,
        [Msg::Input(InputMsg::Key(Key::new(
            KeyCode::Char('r'),
            Modifiers::CONTROL,
        )))],
    );
    assert!(builder(&s).raw);
    send(&mut s, typed("PK = :p"));
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Tab)]);
    send(&mut s, typed(r#"{":p":{"S":"USER#u00001"}}"#));
    assert!(
        builder(&s).check.is_ok(),
        "{:?}",
        builder(&s).check.as_ref().err()
    );
    let effects = send(
        &mut s,
        [Msg::Input(InputMsg::Key(Key::new(
            KeyCode::Char('y'),
            Modifiers::CONTROL,
        )))],
    );
    assert!(
        matches!(effects.as_slice(), [Effect::Terminal(TerminalEffect::Copy(cli))] if cli.starts_with("aws dynamodb query --table-name app"))
    );
}

#[test]
fn palette_runs_patterns_and_fans_out_shards() {
    let mut s = builder_open();
    while s.table.as_ref().unwrap().query_form().is_some() {
        send(&mut s, [press(KeyCode::Esc)]);
    }
    s.patterns = parse_patterns_file(
        include_str!("../../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    let entries = s.table.as_ref().unwrap().palette().unwrap().rows.len();
    assert_eq!(entries, 6);
    // user-orders: one parameter, completed from loaded keys.
    send(&mut s, [press(KeyCode::Down), press(KeyCode::Enter)]);
    send(&mut s, typed("cel"));
    let form = s
        .table
        .as_ref()
        .unwrap()
        .palette()
        .unwrap()
        .form
        .clone()
        .unwrap();
    assert_eq!(form.completion, ["celebrity"]);
    // Ctrl-O switches the completions' order here as in the builder, keeping them listed.
    let order = s.queries.completion_order;
    send(
        &mut s,
        [Msg::Input(InputMsg::Key(crate::app::input::Key::new(
            KeyCode::Char('o'),
            crate::app::input::Modifiers::CONTROL,
        )))],
    );
    assert_ne!(s.queries.completion_order, order);
    let form = s.table.as_ref().unwrap().palette().unwrap().form.as_ref();
    assert_eq!(form.unwrap().completion, ["celebrity"]);
    send(&mut s, [press(KeyCode::Tab)]);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec.clone()),
            _ => None,
        })
        .unwrap();
    assert!(spec.descending);
    assert!(spec
        .values
        .iter()
        .any(|(_, v)| v.as_s() == Some("USER#celebrity")));
    // pending-orders: no parameters, ten shards in parallel, as the segments of one read (one
    // cancel, one capacity guard, a resume point per shard).
    send(&mut s, [char('P')]);
    send(&mut s, (0..5).map(|_| press(KeyCode::Down)));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let specs: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(specs.len(), 1, "{effects:?}");
    assert_eq!(specs[0].segment_count(), 10);
    for shard in 0..10u32 {
        let pk = format!("STATUS#PENDING#{shard}");
        assert!(
            specs[0]
                .values_for(shard)
                .iter()
                .any(|(_, v)| v.as_s() == Some(pk.as_str())),
            "shard {shard}"
        );
    }
    // Each shard reads to its end (or the limit), in explorer-sized pages: the read owner
    // pages it as the palette asked, the effect is not patched afterwards.
    assert_eq!(specs[0].budget.max_pages, None);
    assert_eq!(
        specs[0].page_size,
        Some(crate::app::state::EXPLORER_PAGE_SIZE)
    );
    let read = s.table.as_ref().unwrap().view.read.as_ref().unwrap();
    assert_eq!(read.progress.starts.len(), 10, "a resume point per shard");
    assert_eq!(
        read.spec.budget.max_pages, None,
        "the read is what was sent"
    );
    assert_eq!(
        read.origin,
        crate::app::state::ReadOrigin::Pattern { sharded: true }
    );
}

#[test]
fn a_key_sample_past_the_sessions_budget_is_refused_naming_it_and_offered_again() {
    let mut s = builder_open();
    // The opening page spent 2.5 read units: a session budget of 2.5 has nothing left.
    s.session_budget.max_rcu = Some(2.5);
    send(&mut s, typed("USER#z"));
    let effects = send(&mut s, [ctrl_key('s')]);
    assert!(reads(&effects).is_empty(), "{effects:?}");
    let notice = s.notice.clone().unwrap();
    assert!(notice.error);
    assert!(
        notice.text.starts_with("not sampled: ≈ ")
            && notice
                .text
                .contains("the session's --max-rcu 2.5 (0 left); nothing was sent"),
        "{}",
        notice.text
    );
    assert!(builder(&s).sample_offer.is_some(), "still offered");
    // With room by the state's count the engine's guard has the last word (it also counts the
    // re-reads after refused writes): a sample it stops is said, and offered again.
    s.session_budget.max_rcu = Some(1000.0);
    let started = reads(&send(&mut s, [ctrl_key('s')]));
    let [(id, spec)] = started.as_slice() else {
        panic!("one sample read: {started:?}");
    };
    assert_eq!(
        spec.cause,
        crate::model::engine::read_cause::ReadCause::KeySample
    );
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: *id,
            outcome: DoneOutcome::BudgetReached,
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let notice = s.notice.clone().unwrap().text;
    assert_eq!(
        notice,
        "not sampled: the session's --max-rcu 1000 is spent; nothing was sent"
    );
    assert!(builder(&s).sample_offer.is_some(), "offered again");
}
