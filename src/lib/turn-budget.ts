import { nextTurn } from './next-turn.js';

/**
 * Gives the event loop a turn once `budgetMs` have passed since the last one. For loops whose steps are
 * too small to yield after each (a record, a page of rows) but that add up to seconds on SQLite, where every
 * statement completes synchronously: the loop calls pause() after each step and yields only when its
 * budget is spent, so an HTTP request in the same process waits at most about `budgetMs`.
 */
export class TurnBudget {
  private since = performance.now();

  constructor(private readonly budgetMs = 10) {}

  async pause(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return;
    await nextTurn();
    this.since = performance.now();
  }
}
