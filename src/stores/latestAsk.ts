/**
 * Answers that may cross (a list read again while the last read is on its way): only the answer
 * to the latest ask is taken. `ask()` when a request starts, `isLatest(ticket)` when its answer
 * comes; `forget()` drops every answer still on its way (a reset, a sign-out).
 */
export class LatestAsk {
  private asked = 0;

  ask(): number {
    return ++this.asked;
  }

  isLatest(ticket: number): boolean {
    return ticket === this.asked;
  }

  forget(): void {
    this.asked += 1;
  }
}
