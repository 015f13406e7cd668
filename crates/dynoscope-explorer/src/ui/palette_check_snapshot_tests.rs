//! The palette with each checked pattern's last cost and verdict beside its name (Ctrl-K).

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{InputMsg, Msg};
use crate::model::design::pattern_check::{
    assess, plan, Assessment, CallCost, KeySample, Measured,
};
use crate::model::item::value::{AttrValue, Item};

#[test]
fn palette_shows_each_checked_patterns_cost_and_verdict() {
    let mut s = loaded(false);
    s.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    let info = s.table.as_ref().unwrap().info.loaded().unwrap().clone();
    let report = |name: &str, rcu: f64, sample: &[Item]| {
        let p = s.patterns.iter().find(|p| p.name == name).unwrap().clone();
        let call = CallCost {
            returned: 2,
            read: 2,
            pages: 1,
            rcu,
        };
        assess(Assessment {
            pattern: &p,
            source: "demo",
            plan: plan(&p, &info),
            sample: &KeySample::unspread(sample.to_vec()),
            measured: Measured::of(vec![call; 3], false),
            unmeasured: None,
            advice: None,
        })
    };
    // 40 orders over three statuses on GSI1: a low-cardinality key.
    let statuses: Vec<Item> = (0..40)
        .map(|i| {
            let status = [
                "STATUS#SHIPPED",
                "STATUS#SHIPPED",
                "STATUS#NEW",
                "STATUS#DONE",
            ][i % 4];
            Item::from_attrs(vec![("GSI1PK".into(), AttrValue::S(status.into()))])
        })
        .collect();
    let answers = [
        ("user-orders", report("user-orders", 0.5, &[])),
        (
            "orders-by-status",
            report("orders-by-status", 2.0, &statuses),
        ),
    ];
    for (name, r) in answers {
        send(
            &mut s,
            [Msg::PatternChecked {
                table: "app".into(),
                pattern: name.into(),
                result: Ok(Box::new(r)),
                spent_rcu: 9.5,
                stopped: false,
            }],
        );
    }
    // The highlighted one is being checked.
    send(
        &mut s,
        [Msg::Input(InputMsg::Key(Key::new(
            KeyCode::Char('k'),
            Modifiers::CONTROL,
        )))],
    );
    insta::assert_snapshot!("palette_with_checks", render(&s).backend());
}
