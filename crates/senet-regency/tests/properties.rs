//! Properties over positions reached by random play, under random option combinations: the
//! generic suite of `senet_testkit::properties` (piece counts are conserved, no square holds
//! two pieces, every generated move applies cleanly, a pass is offered only when nothing else
//! is legal, an illegal move leaves the state unchanged, and every game ends).

use senet_regency::Regency;

senet_testkit::ruleset_properties!(Regency);
