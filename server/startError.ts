/** Stops the start: its message is the one line a person reads before exit code 1. */
export class StartError extends Error {}
