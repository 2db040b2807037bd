/*
 * Muster: when may a revoked kiosk wipe itself?  A Promela model for spin.
 *
 * Three kiosks K0, K1, K2 replicate signed deltas peer to peer.  The question is the one
 * irreversible act in the system: a kiosk deleting its replica and keys ("wipe") when it
 * believes it has been revoked.  Two safety properties are asserted at the moment of every wipe:
 *
 *   P1  no acknowledged check-in that exists on no other kiosk is ever wiped:
 *       when Kk wipes, for every author a with held[k][a] > 0 some other kiosk j that is not
 *       wiped has held[j][a] >= held[k][a].
 *   P2  only a kiosk revoked by the organizer key on the winning branch of the organizer's fork
 *       is wiped: when Kk wipes, a revocation of Kk signed by the organizer key is in force in
 *       Kk's own replica and lies on the globally winning branch.
 *
 * Rules (chosen at compile time):
 *   -DOLD_RULE  what the code did: a kiosk wipes as soon as it holds (hears in a "you are revoked"
 *               message, a replay, or ingests in a sync) any revocation naming it that verifies by
 *               signature, organizer (either fork branch) or device, in force or not; at restart it
 *               wipes if its replica holds a revocation of it.  Records of a revoked kiosk after the
 *               revocation's watermark are DESTROYED in every replica where it is in force.
 *   default     the new rule (Sources/MusterStore/RevocationVerdict.swift): wipe only if
 *               (1) a revocation of me is in force in MY replica (messages are hints, merged first,
 *               with the fork rule and device take-backs applied), (2) it was signed by the
 *               organizer key, (3) every record I hold is known to be held by another kiosk: my own
 *               chain from peers' reported heads (kept per reporter across restarts) or from the
 *               revocation's watermark (it names the signing replica's copy of my chain by hash);
 *               other kiosks' chains only from heads peers reported in this run (per reporter,
 *               forgotten at restart).  A peer's report counts only if that peer is not revoked
 *               (in force) in MY replica at the verdict (Replica+HeldElsewhere: counts).
 *               Otherwise the kiosk STOPS: inactive, replica kept, may be restarted.  Records after
 *               a revocation's watermark are SET ASIDE (kept on disk, not served to peers).
 *
 * Scenario switches: -DNO_DEVICE (the device never signs), -DNO_FORK (the organizer key is not
 * forked), -DONLY_P1 (assert P1 only, so a trail runs on to the loss of check-ins),
 * -DNO_WIPE_REACHABLE (asserts that no wipe happens: its counterexample shows a wipe is reachable),
 * -DSECOND_ORG (after the heal the organizer key also revokes K1 (C), at the organizer's next seq
 * after the fork, so two kiosks may wipe and "known held elsewhere" can go stale; see model/README.md),
 * with -DC_ON_WINNER (C extends the winning branch of the fork), -DNO_ORG_PREFIX (C delivered
 * without the organizer chain before it, unlike the code), -DCOUNT_STRICT (a candidate filter:
 * a reporter of whom any organizer revocation is held, superseded too, does not count),
 * -DNO_SECOND_WIPE_REACHABLE (sanity: a kiosk wipes after another one did),
 * -DLOCK_IN_FLIGHT (beyond the brief: the lock signed on laptop A reaches K0 only later, or never).
 *
 * What is modelled
 *   - held[k][a] in 0..MAXC: how far kiosk k's replica holds author a's chain (a prefix; set-aside
 *     records included: they are on k's disk).  Each kiosk acknowledges up to MAXC of its own.
 *   - A partition {K0} | {K1,K2} from the start, healed nondeterministically once.
 *   - The organizer key used on both sides (two laptops, one key) at the same organizer seq:
 *     branch A (side of K0) signs a lock, branch B (side of K1,K2) signs a revocation of K0 with
 *     watermark = what the signing kiosk's replica held of K0.  winnerA, chosen at the start, says
 *     which branch carries the earlier stamp; the earlier one is signed first.  A replica holding
 *     both keeps the earlier and drops the other: a revocation on the dropped branch is superseded.
 *   - One organizer DEVICE key (maybe stolen) that may revoke any kiosk once, at any time, on any
 *     reachable replica (watermark = what that replica held of the kiosk).  The organizer key may
 *     revoke the device once, on any replica; that takes back every device revocation there.
 *   - Sync between two active kiosks on the same side: if either holds a revocation of the other
 *     in force, it refuses and sends that revocation ("you are revoked"), nothing else; otherwise
 *     revocation knowledge is merged both ways, records go both ways (each serves what it has not
 *     set aside / destroyed), and each learns the other's heads.
 *   - Replay: anyone with the network key may resend any revocation ever signed (superseded or
 *     taken back included) to the kiosk it names, at any time, across the partition.
 *   - Crash and restart at any time: records and revocation knowledge are durable; what peers
 *     reported of other kiosks' chains is lost, the proof about the kiosk's own chain is kept.
 *   - Wipe: the kiosk's replica and keys are gone; it takes no further part.
 *
 * What is abstracted away (honestly)
 *   - Signatures, hashes, timestamps, attendees, check-in contents and conflicts: a chain is a count.
 *     A peer's head "checks out by hash" is always true here (kiosk chains do not fork).
 *   - Only one organizer fork (one seq, one revocation: of K0) and one device; no other organizer
 *     revocations unless -DSECOND_ORG.  So by default only K0 can ever wipe under the new rule, and
 *     the staleness of "known held elsewhere" (the holder may itself wipe later) is not exercised.
 *   - With -DSECOND_ORG, C is one delta at the seq after the fork; its chain prefix (the branch A or
 *     B it extends) travels with it wherever it goes, and a fork-dropped branch drops C with it.
 *     A superseded revocation's "answer" (the winning version sent back) is not modelled: it is a
 *     message that may be lost.
 *   - The organizer laptops are not replicas: branch A is written to K0's replica when signed,
 *     branch B to the replica of K1 or K2 it was signed on, the device's take-back to one kiosk.
 *     A lock signed on laptop A that has not yet reached K0 is modelled only with -DLOCK_IN_FLIGHT.
 *   - A kiosk holding both an organizer and a device revocation of itself may wipe (judged by the
 *     organizer one); this is at least as permissive as the code, so safety carries over.
 *   - A stopped kiosk does nothing until it restarts (it does not sync while stopped).
 *   - Messages are delivered atomically (one sync is one step); loss is the same as not syncing.
 */

#define N    3
#ifndef MAXC
#define MAXC 1
#endif
#define IX(r, a) ((r) * N + (a))
#define RX(k, r, a) ((k) * N * N + (r) * N + (a))

byte held[N * N];     /* held[r][a]: how far replica r holds author a's chain                   */
byte rep[N * N * N];  /* rep[k][r][a]: how far peer r reported (to k) that it holds a's chain
                         (new rule; only the rows of kiosks that can wipe are kept, see sync).
                         At the verdict only reporters not revoked in k's own replica count.    */
bit  wiped[N];
bit  stopped[N];      /* new rule only: revoked, data kept, inactive until restart              */

bit  partitioned = 1; /* {K0} | {K1,K2} until healed                                            */
bit  winnerA;         /* 1: branch A (the lock) has the earlier stamp, branch B is superseded   */
bit  signedA, signedB;
bit  hasA[N], hasB[N];/* replica r holds organizer branch A / branch B (revocation of K0)       */
byte wmB;             /* branch B's watermark on K0's chain                                     */
bit  signedC;         /* -DSECOND_ORG only: an unforked organizer revocation of K1 ...          */
bit  hasC[N];         /* ... held by replica r ...                                              */
byte wmC;             /* ... and its watermark on K1's chain                                    */
bit  cOnA;            /* C is the organizer's next seq after the fork: it extends branch A (1)
                         or B (0), whichever the signing replica held in force                  */

bit  devSigned[N];    /* the device signed a revocation of kiosk k                              */
byte wmDev[N];
bit  hasDev[N * N];   /* hasDev[r][k]: replica r holds the device's revocation of k             */
bit  devRevSigned;    /* the organizer key revoked the device                                   */
bit  hasDevRev[N];    /* replica r holds that: every device revocation is taken back there      */

/* scratch, always reset to 0 at the end of a step so it never splits states */
byte i, j, k, a, c, t, u, cap1, cap2, dr;

#define active(x)        (!wiped[x] && !stopped[x])
#define sameSide(x, y)   (!partitioned || ((x) != 0 && (y) != 0))
#define orgInForce(r)    (hasB[r] && !(hasA[r] && winnerA))          /* revocation of K0 */
#define devInForce(r, x) (hasDev[IX(r, x)] && !hasDevRev[r])
/* C in force at r: held, and the branch it extends not superseded there (-DNO_ORG_PREFIX: always) */
#if defined(NO_ORG_PREFIX) || defined(NO_FORK)
#define cInForce(r)      (hasC[r])
#else
#define cInForce(r)      (hasC[r] && ((cOnA && !(hasB[r] && !winnerA)) || (!cOnA && !(hasA[r] && winnerA))))
#endif
/* C lies on the winning branch of the fork (P2); without the prefix C is outside the fork */
#if defined(NO_ORG_PREFIX) || defined(NO_FORK)
#define CWINS            (1)
#else
#define CWINS            (cOnA == winnerA)
#endif
#define orgRevOf(r, x)   ((((x) == 0) && orgInForce(r)) || (((x) == 1) && cInForce(r)))
#define revokedAt(r, x)  (orgRevOf(r, x) || devInForce(r, x))
/* whether reporter y's word counts at judge x: y is not revoked (in force) in x's own replica (the
 * code: Replica.counts).  -DCOUNT_STRICT (a candidate, not the code): nor is any organizer revocation
 * of y held in x's replica at all, superseded by the fork rule included. */
#ifdef COUNT_STRICT
#define COUNTS(x, y)     (!revokedAt(x, y) && !((y) == 0 && hasB[x]) && !((y) == 1 && hasC[x]))
#else
#define COUNTS(x, y)     (!revokedAt(x, y))
#endif
/* the kiosks that can wipe under the new rule (an organizer revocation can name them) */
#ifdef SECOND_ORG
#define CANWIPE(x) ((x) <= 1)
#else
#define CANWIPE(x) ((x) == 0)
#endif
/* OLD rule: any revocation naming x that verifies, in force or not */
#define holdsAnyRevOf(x) ((((x) == 0) && hasB[x]) || (((x) == 1) && hasC[x]) || hasDev[IX(x, x)])

/* cap(r, x) -> v: how far replica r serves x's chain (watermarks of revocations in force) */
inline capOf(r, x, v) {
    v = MAXC;
    if :: x == 0 && orgInForce(r) && wmB < v -> v = wmB :: else fi;
    if :: x == 1 && cInForce(r) && wmC < v -> v = wmC :: else fi;
    if :: devInForce(r, x) && wmDev[x] < v -> v = wmDev[x] :: else fi
}

/* OLD rule: records after a revocation's watermark are destroyed in replica r */
inline destroy(r) {
#ifdef OLD_RULE
    for (u : 0 .. N - 1) {
        capOf(r, u, cap1);
        if :: held[IX(r, u)] > cap1 -> held[IX(r, u)] = cap1 :: else fi
    }
    u = 0; cap1 = 0
#else
    skip
#endif
}

/* The wipe, with the two properties checked at that moment. */
inline wipe(w) {
    for (a : 0 .. N - 1) {
        if
        :: held[IX(w, a)] > 0 ->
            c = 0;
            for (j : 0 .. N - 1) {
                if :: j != w && !wiped[j] && held[IX(j, a)] >= held[IX(w, a)] -> c = 1 :: else fi
            }
            if
            :: !c -> printf("MODEL: P1 violated: K%d wipes K%d's check-ins 1..%d, held by no other live kiosk\n",
                             w, a, held[IX(w, a)])
            :: else
            fi;
            assert(c)  /* P1 */
        :: else
        fi
    }
#ifndef ONLY_P1
    if
    :: !((w == 0 && orgInForce(w) && !winnerA) || (w == 1 && cInForce(w) && CWINS)) ->
        printf("MODEL: P2 violated: K%d wipes though no winning-branch organizer revocation of it is in force (org in force %d, winnerA %d, device in force %d)\n",
               w, w == 0 && orgInForce(w), winnerA, devInForce(w, w))
    :: else
    fi;
    t = ((w == 0 && orgInForce(w) && !winnerA) || (w == 1 && cInForce(w) && CWINS));
    assert(t);  /* P2 (t: the winning-branch organizer revocation of w is in force in its replica) */
    t = 0;
#endif
    printf("MODEL: K%d WIPES\n", w);
#ifdef NO_SECOND_WIPE_REACHABLE
    assert(!wiped[0] && !wiped[1] && !wiped[2]);  /* sanity run: a second kiosk wipes after another */
#endif
#ifdef NO_WIPE_REACHABLE
    assert(false);  /* sanity run: proves a wipe is reachable, so the properties are not vacuous */
#endif
    wiped[w] = 1; stopped[w] = 0; hasA[w] = 0; hasB[w] = 0; hasC[w] = 0; hasDevRev[w] = 0;
    for (a : 0 .. N - 1) {
        held[IX(w, a)] = 0; hasDev[IX(w, a)] = 0;
        for (j : 0 .. N - 1) { rep[RX(w, j, a)] = 0 }
    }
    a = 0; j = 0; c = 0
}

/* Restart of x: what peers reported of other kiosks' chains is forgotten (this run only); what
 * each reported of x's own chain is kept (persisted per reporter, held_elsewhere:<reporter>). */
inline forget(x) {
    for (j : 0 .. N - 1) {
        for (a : 0 .. N - 1) { if :: a != x -> rep[RX(x, j, a)] = 0 :: else fi }
    }
    j = 0; a = 0
}

/* What kiosk x does after its replica changed (or at restart). */
inline react(x) {
#ifdef OLD_RULE
    if :: !wiped[x] && holdsAnyRevOf(x) -> wipe(x) :: else fi
#else
    if
    :: active(x) && revokedAt(x, x) ->
        if
        :: orgRevOf(x, x) ->
            /* (3): every record held here is known to be held by another kiosk */
            c = 1;
            for (a : 0 .. N - 1) {
                /* what a peer reported it holds counts only if that peer is not revoked (in
                 * force) in MY replica: a revoked one may have wiped itself since it reported */
                t = 0;
                for (j : 0 .. N - 1) {
                    if :: j != x && COUNTS(x, j) && rep[RX(x, j, a)] > t -> t = rep[RX(x, j, a)] :: else fi
                }
                j = 0;
                /* own chain: the watermark names my copy */
                if :: a == x && x == 0 && wmB > t -> t = wmB :: else fi;
                if :: a == x && x == 1 && wmC > t -> t = wmC :: else fi;
                if :: held[IX(x, a)] > t -> c = 0 :: else fi
            }
            a = 0; t = 0;
            if
            :: c -> c = 0; wipe(x)
            :: else -> printf("MODEL: K%d stops (organizer revocation, some records held only here)\n", x); stopped[x] = 1
            fi
        :: else -> printf("MODEL: K%d stops (revoked by the device only)\n", x); stopped[x] = 1
        fi
    :: else
    fi
#endif
}

/* C reaches replica r.  In the code a revocation is applied only as the contiguous next delta of
 * the organizer's chain (Replica+Ingest: contiguousPrefix; a lone revocation beyond the replica's
 * head is not applied and the kiosk only stops), so a replica holding C in force holds the
 * organizer's delta at the fork seq that C extends.  -DNO_ORG_PREFIX drops this (C alone). */
inline deliverC(r) {
    hasC[r] = 1;
#if !defined(NO_ORG_PREFIX) && !defined(NO_FORK)
    if :: cOnA -> hasA[r] = 1 :: else -> hasB[r] = 1 fi
#endif
}

/* Refusal: replica `from` holds a revocation of `to` in force and sends it ("you are revoked"). */
inline sendRevocation(from, to) {
    if :: to == 0 && orgInForce(from) -> hasB[to] = 1 :: else fi;
    if :: to == 1 && cInForce(from) -> deliverC(to) :: else fi;
    if :: devInForce(from, to) -> hasDev[IX(to, to)] = 1 :: else fi;
    destroy(to)
}

inline sync(x, y) {
    if
    :: revokedAt(x, y) || revokedAt(y, x) ->
        if :: revokedAt(x, y) -> sendRevocation(x, y) :: else fi;
        if :: revokedAt(y, x) -> sendRevocation(y, x) :: else fi
    :: else ->
        /* revocation knowledge, both ways */
        hasA[x] = hasA[x] | hasA[y]; hasA[y] = hasA[x];
        hasB[x] = hasB[x] | hasB[y]; hasB[y] = hasB[x];
        hasC[x] = hasC[x] | hasC[y]; hasC[y] = hasC[x];
        hasDevRev[x] = hasDevRev[x] | hasDevRev[y]; hasDevRev[y] = hasDevRev[x];
        for (i : 0 .. N - 1) {
            hasDev[IX(x, i)] = hasDev[IX(x, i)] | hasDev[IX(y, i)]; hasDev[IX(y, i)] = hasDev[IX(x, i)]
        }
        destroy(x); destroy(y);
        /* records, both ways: each serves what it has not set aside (new) or destroyed (old) */
        for (i : 0 .. N - 1) {
            capOf(x, i, cap1); capOf(y, i, cap2);
            t = (held[IX(x, i)] < cap1 -> held[IX(x, i)] : cap1);   /* x serves */
            u = (held[IX(y, i)] < cap2 -> held[IX(y, i)] : cap2);   /* y serves */
#ifdef OLD_RULE
            /* the old code refused (destroyed) records after a watermark in force */
            if :: t > cap2 -> t = cap2 :: else fi;
            if :: u > cap1 -> u = cap1 :: else fi;
#endif
            /* new code: records after a watermark in force are accepted and set aside */
            if :: t > held[IX(y, i)] -> held[IX(y, i)] = t :: else fi;
            if :: u > held[IX(x, i)] -> held[IX(x, i)] = u :: else fi
        }
#ifndef OLD_RULE
        /* heads: each learns how far the other serves every chain.  Only K0 can ever wipe under
         * the new rule (the one organizer revocation names K0; K1 too with -DSECOND_ORG), so only
         * their knowledge is kept: the other rows would only split states. */
        for (i : 0 .. N - 1) {
            capOf(x, i, cap1); capOf(y, i, cap2);
            t = (held[IX(x, i)] < cap1 -> held[IX(x, i)] : cap1);
            u = (held[IX(y, i)] < cap2 -> held[IX(y, i)] : cap2);
            if :: CANWIPE(x) && u > rep[RX(x, y, i)] -> rep[RX(x, y, i)] = u :: else fi;
            if :: CANWIPE(y) && t > rep[RX(y, x, i)] -> rep[RX(y, x, i)] = t :: else fi
        }
#endif
    fi;
    i = 0; t = 0; u = 0; cap1 = 0; cap2 = 0;
    react(x); react(y)
}

active proctype world() {
    /* which branch of the organizer's fork carries the earlier stamp */
    if :: winnerA = 1 :: winnerA = 0 fi;
    printf("MODEL: winnerA=%d (1: branch A, the lock, has the earlier stamp; 0: branch B, the revocation of K0)\n", winnerA);
end:
    do
    /* a kiosk acknowledges a check-in of its own */
    :: d_step { active(0) && held[IX(0, 0)] < MAXC -> held[IX(0, 0)]++; printf("MODEL: K0 acknowledges check-in %d\n", held[IX(0, 0)]) }
    :: d_step { active(1) && held[IX(1, 1)] < MAXC -> held[IX(1, 1)]++; printf("MODEL: K1 acknowledges check-in %d\n", held[IX(1, 1)]) }
    :: d_step { active(2) && held[IX(2, 2)] < MAXC -> held[IX(2, 2)]++; printf("MODEL: K2 acknowledges check-in %d\n", held[IX(2, 2)]) }

    /* sync between two active kiosks that can reach each other */
    :: d_step { active(0) && active(1) && sameSide(0, 1) -> printf("MODEL: K0 and K1 sync\n"); sync(0, 1) }
    :: d_step { active(0) && active(2) && sameSide(0, 2) -> printf("MODEL: K0 and K2 sync\n"); sync(0, 2) }
    :: d_step { active(1) && active(2) -> printf("MODEL: K1 and K2 sync\n"); sync(1, 2) }

    /* the partition heals */
    :: d_step { partitioned -> partitioned = 0; printf("MODEL: the partition heals\n") }

#ifndef NO_FORK
    /* organizer laptop A (K0's side) signs the lock: branch A, written to K0's replica */
    :: d_step { partitioned && !signedA && active(0) && (winnerA || signedB) ->
#ifndef LOCK_IN_FLIGHT
                signedA = 1; hasA[0] = 1; printf("MODEL: organizer laptop A signs the lock (branch A) on K0\n"); react(0) }
#else
                signedA = 1; printf("MODEL: organizer laptop A signs the lock (branch A), not yet on K0\n") }
    /* laptop A hands the lock to K0 later (or never) */
    :: d_step { signedA && !hasA[0] && active(0) -> hasA[0] = 1;
                printf("MODEL: laptop A hands the lock (branch A) to K0\n"); react(0) }
#endif
    /* organizer laptop B (other side) signs a revocation of K0 on K1's or K2's replica: branch B */
    :: d_step { partitioned && !signedB && active(1) && (!winnerA || signedA) ->
                signedB = 1; hasB[1] = 1; wmB = held[IX(1, 0)]; printf("MODEL: organizer laptop B signs a revocation of K0 (branch B) on K1, watermark %d\n", wmB); destroy(1) }
    :: d_step { partitioned && !signedB && active(2) && (!winnerA || signedA) ->
                signedB = 1; hasB[2] = 1; wmB = held[IX(2, 0)]; printf("MODEL: organizer laptop B signs a revocation of K0 (branch B) on K2, watermark %d\n", wmB); destroy(2) }
    /* replay of branch B to K0, at any time (superseded or not) */
    :: d_step { signedB && active(0) -> printf("MODEL: replay of branch B (revocation of K0) to K0\n"); hasB[0] = 1; destroy(0); react(0) }
#endif

#ifdef SECOND_ORG
    /* after the heal, C is the organizer's next seq: signed on a replica that holds the fork seq
     * (A or B), extending the branch in force there (-DNO_ORG_PREFIX or -DNO_FORK: unconstrained) */
#if defined(NO_ORG_PREFIX) || defined(NO_FORK)
#define CPREV(r)   (1)
#define SETCONA(r) skip
#elif defined(C_ON_WINNER)
    /* -DC_ON_WINNER: the organizer signs C only on a replica holding the winning branch (in force) */
#define CPREV(r)   ((winnerA && hasA[r]) || (!winnerA && hasB[r] && !hasA[r]))
#define SETCONA(r) cOnA = winnerA
#else
#define CPREV(r)   (hasA[r] || hasB[r])
#define SETCONA(r) cOnA = (hasA[r] && (winnerA || !hasB[r]))
#endif
    /* after the heal, the organizer key (unforked) revokes K1 on K0's or K2's replica */
    :: d_step { !partitioned && !signedC && active(0) && CPREV(0) ->
                signedC = 1; hasC[0] = 1; SETCONA(0); wmC = held[IX(0, 1)];
                printf("MODEL: the organizer revokes K1 (unforked) on K0, watermark %d\n", wmC); destroy(0) }
    :: d_step { !partitioned && !signedC && active(2) && CPREV(2) ->
                signedC = 1; hasC[2] = 1; SETCONA(2); wmC = held[IX(2, 1)];
                printf("MODEL: the organizer revokes K1 (unforked) on K2, watermark %d\n", wmC); destroy(2) }
    /* replay of it to K1 */
    :: d_step { signedC && active(1) -> printf("MODEL: replay of the revocation of K1 to K1\n");
                deliverC(1); destroy(1); react(1) }
#endif

#ifndef NO_DEVICE
    /* the device (maybe stolen) revokes kiosk k on replica r, watermark = what r holds of k */
    :: atomic { (!devSigned[0] || !devSigned[1] || !devSigned[2]) && (active(0) || active(1) || active(2)) ->
        if :: !devSigned[0] -> k = 0 :: !devSigned[1] -> k = 1 :: !devSigned[2] -> k = 2 fi;
        if :: active(0) -> j = 0 :: active(1) -> j = 1 :: active(2) -> j = 2 fi;
        d_step {
            devSigned[k] = 1; wmDev[k] = held[IX(j, k)]; hasDev[IX(j, k)] = 1; printf("MODEL: the device revokes K%d on K%d's replica, watermark %d\n", k, j, wmDev[k]);
            destroy(j); dr = j; j = 0; k = 0; react(dr); dr = 0
        }
      }
    /* the organizer key revokes the device, on any active replica: takes back its revocations */
    :: d_step { !devRevSigned && active(0) -> devRevSigned = 1; hasDevRev[0] = 1; printf("MODEL: the organizer revokes the device, on K0\n"); react(0) }
    :: d_step { !devRevSigned && active(1) -> devRevSigned = 1; hasDevRev[1] = 1; printf("MODEL: the organizer revokes the device, on K1\n"); react(1) }
    :: d_step { !devRevSigned && active(2) -> devRevSigned = 1; hasDevRev[2] = 1; printf("MODEL: the organizer revokes the device, on K2\n"); react(2) }
    /* replay of a device revocation to the kiosk it names (taken back or not) */
    :: d_step { devSigned[0] && active(0) -> printf("MODEL: replay of the device's revocation of K0 to K0\n"); hasDev[IX(0, 0)] = 1; destroy(0); react(0) }
    :: d_step { devSigned[1] && active(1) -> printf("MODEL: replay of the device's revocation of K1 to K1\n"); hasDev[IX(1, 1)] = 1; destroy(1); react(1) }
    :: d_step { devSigned[2] && active(2) -> printf("MODEL: replay of the device's revocation of K2 to K2\n"); hasDev[IX(2, 2)] = 1; destroy(2); react(2) }
#endif

    /* crash and restart: records and revocations durable, peers' heads of other chains forgotten */
    :: d_step { !wiped[0] -> printf("MODEL: K0 crashes and restarts\n"); stopped[0] = 0; forget(0); react(0) }
    :: d_step { !wiped[1] -> printf("MODEL: K1 crashes and restarts\n"); stopped[1] = 0; forget(1); react(1) }
    :: d_step { !wiped[2] -> printf("MODEL: K2 crashes and restarts\n"); stopped[2] = 0; forget(2); react(2) }
    od
}
