//! Reservations: minted only by admission, against the read's own guard and the session's,
//! settled once with what was consumed (or the worst case when dropped unsettled).

use tokio_util::sync::CancellationToken;

use super::*;
use crate::model::traffic::capacity::worst_case_read_units;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

#[test]
fn a_read_is_admitted_by_its_own_guard_and_the_sessions_and_settles_both() {
    rt().block_on(async {
        let session = SessionGuard::new(Some(50.0), None).unwrap();
        let own = CapacityGuard::new(Some(1000.0), None, false);
        let guards = ReadGuards::new(own, Some(session.clone()));
        let stop = CancellationToken::new();
        let Some(Admitted::Go(r)) = guards.admit(Some(1000), ReadCause::Scan, &stop).await else {
            panic!("not admitted");
        };
        assert_eq!(r.cause(), ReadCause::Scan);
        // The session's 50 units cannot hold 1000 items of 400 KB: the session (which sizes as
        // strongly consistent, 4 KB items before any page came back) lowers Limit to 50.
        let limit = r.limit().unwrap();
        assert_eq!(limit, 50);
        r.settle(12.5, limit as u64);
        assert_eq!(session.spent(), 12.5);
        assert_eq!(guards.own.as_ref().unwrap().spent(), 12.5);
    });
}

#[test]
fn a_spent_session_refuses_naming_its_budget_and_gives_the_own_reservation_back() {
    rt().block_on(async {
        let session = SessionGuard::new(Some(1.0), None).unwrap();
        let r = session
            .reserve(Some(1), ReadCause::KeySample)
            .await
            .unwrap();
        r.settle(1.5, 1);
        let guards = ReadGuards::new(
            CapacityGuard::new(Some(10.0), None, false),
            Some(session.clone()),
        );
        let stop = CancellationToken::new();
        match guards.admit(Some(100), ReadCause::KeySample, &stop).await {
            Some(Admitted::Exhausted {
                session: Some(refused),
            }) => {
                assert_eq!(refused.budget, 1.0);
                assert_eq!(refused.spent, 1.5);
                assert_eq!(
                    refused.to_string(),
                    "the session's --max-rcu 1 is spent (1.5 read units consumed)"
                );
            }
            other => panic!("{other:?}"),
        }
        // Nothing stays reserved on the read's own guard: it admits at once, alone.
        let own = guards.own.as_ref().unwrap();
        assert_eq!(own.spent(), 0.0);
        let admitted = tokio::time::timeout(
            std::time::Duration::from_secs(1),
            own.admit(Some(100), &stop),
        )
        .await;
        assert!(matches!(admitted, Ok(Some(Admission::Go { .. }))));
        assert!(matches!(
            session.reserve(Some(1), ReadCause::ConflictReread).await,
            Err(Refused { budget, .. }) if budget == 1.0
        ));
    });
}

#[test]
fn the_reads_own_budget_stops_it_without_naming_the_session() {
    rt().block_on(async {
        let own = CapacityGuard::new(Some(1.0), None, false).unwrap();
        let Some(Admission::Go { ticket, .. }) =
            own.admit(Some(1), &CancellationToken::new()).await
        else {
            panic!("not admitted");
        };
        own.settle(ticket, 1.0, 1);
        let guards = ReadGuards {
            own: Some(std::sync::Arc::new(own)),
            session: SessionGuard::new(Some(100.0), None),
            item_bytes: None,
        };
        let admitted = guards
            .admit(Some(1), ReadCause::Scan, &CancellationToken::new())
            .await;
        assert!(matches!(
            admitted,
            Some(Admitted::Exhausted { session: None })
        ));
        assert_eq!(guards.session.as_ref().unwrap().spent(), 0.0);
    });
}

#[test]
fn a_reservation_dropped_unsettled_is_charged_its_worst_case() {
    rt().block_on(async {
        let session = SessionGuard::new(Some(10_000.0), None).unwrap();
        let r = session.reserve(Some(3), ReadCause::Scan).await.unwrap();
        assert_eq!(r.limit(), Some(3));
        drop(r);
        assert_eq!(session.spent(), worst_case_read_units(Some(3), true));
    });
}

#[test]
fn without_any_guard_a_reservation_still_carries_its_cause_and_limit() {
    rt().block_on(async {
        let r = reserve(None, Some(7), ReadCause::ConflictReread)
            .await
            .unwrap();
        assert_eq!((r.limit(), r.cause()), (Some(7), ReadCause::ConflictReread));
        let guards = ReadGuards::default();
        let Some(Admitted::Go(r)) = guards
            .admit(None, ReadCause::OpenTable, &CancellationToken::new())
            .await
        else {
            panic!("not admitted");
        };
        assert_eq!((r.limit(), r.cause()), (None, ReadCause::OpenTable));
    });
}

/// A timed-out attempt may have been served: it stays charged at its worst case, and a retry
/// goes only when the budget holds one more worst case; an answered attempt (a throttle) costs
/// what it says.
#[test]
fn every_attempt_whose_answer_was_lost_is_charged_and_a_retry_needs_room() {
    rt().block_on(async {
        // One item strongly consistent: 100 units at worst (400 KB).
        let one = worst_case_read_units(Some(1), true);
        let session = SessionGuard::new(Some(2.5 * one), None).unwrap();
        let stop = CancellationToken::new();
        let guards = ReadGuards::new(None, Some(session.clone()));
        let Some(Admitted::Go(r)) = guards.admit(Some(1), ReadCause::Scan, &stop).await else {
            panic!("not admitted");
        };
        let charge = r.charge().clone();
        charge.admit().expect("the first attempt");
        charge.ended(true); // throttled: answered, nothing consumed
        charge
            .admit()
            .expect("a retry after an answer needs no more room");
        charge.ended(false); // timed out: it may have been served
        charge
            .admit()
            .expect("two worst cases fit in two and a half");
        charge.ended(false);
        assert_eq!(charge.lost(), 2);
        let refused = charge.admit().unwrap_err();
        assert!(refused.contains("not retried"), "{refused}");
        // Settled at every lost attempt's worst case (the request failed).
        r.settle(2.0 * one, 0);
        assert_eq!(session.spent(), 2.0 * one);
        // Dropped unsettled after a lost attempt and a retry: both worst cases.
        let session = SessionGuard::new(Some(10.0 * one), None).unwrap();
        let guards = ReadGuards::new(None, Some(session.clone()));
        let Some(Admitted::Go(r)) = guards.admit(Some(1), ReadCause::Scan, &stop).await else {
            panic!("not admitted");
        };
        r.charge().admit().unwrap();
        r.charge().ended(false);
        r.charge().admit().unwrap();
        drop(r);
        assert_eq!(session.spent(), 2.0 * one);
    });
}
