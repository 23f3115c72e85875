import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTurnSharing } from '../../src/lib/shared-turn.js';

/** A clock the test moves by hand, so "how long a step took" is exact. */
function manualClock() {
  let at = 1000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** Which of the given promises settle before a macrotask queued now runs (i.e. without waiting a turn). */
async function settledThisTurn(promises: Promise<void>[]): Promise<boolean[]> {
  const done = promises.map(() => false);
  promises.forEach((p, i) => void p.then(() => (done[i] = true)));
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  await Promise.resolve();
  return done;
}

test('steps run at once while the turn lasts, and wait for a later turn once the allowance is spent', async () => {
  const clock = manualClock();
  const turns = createTurnSharing(5, clock.now);
  // First step of the turn: at once. A step 3 ms later: still at once.
  assert.deepEqual(await settledThisTurn([turns.take()]), [true]);
  clock.advance(3);
  assert.deepEqual(await settledThisTurn([turns.take()]), [true]);
  // 6 ms into the turn: the allowance (5 ms) is spent, so this step waits.
  clock.advance(3);
  const waiting = turns.take();
  assert.deepEqual(await settledThisTurn([waiting]), [false]);
  // In the next turn it runs, and it starts that turn's allowance.
  await waiting;
  assert.deepEqual(await settledThisTurn([turns.take()]), [true]);
});

test('the steps that waited share the next turn too: no turn runs much more than its allowance', async () => {
  const clock = manualClock();
  const turns = createTurnSharing(5, clock.now);
  await turns.take();
  clock.advance(10);
  // Counts event-loop turns (one check phase each), to see in which turn each step ran.
  let turn = 0;
  let ticking = true;
  const tick = (): void => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const ranIn: Record<string, number> = {};
  // Three lanes resume in a spent turn; each step "takes" 4 ms once it runs.
  const lanes = ['a', 'b', 'c'].map(async (name) => {
    await turns.take();
    ranIn[name] = turn;
    clock.advance(4);
  });
  await Promise.all(lanes);
  ticking = false;
  // a and b fit one turn (0 + 4 < 5 ms), c does not and runs in a later one.
  assert.equal(ranIn.a, ranIn.b);
  assert.ok(ranIn.c! > ranIn.b!, `the third step ran in turn ${ranIn.c}, the first two in turn ${ranIn.a}`);
});
