/** `roost-edge enroll <code>`: fetches a house's network id and token (not built yet). */
export function enrolCommand(argv: string[]): Promise<number> {
  void argv;
  console.error('roost-edge enroll: not built yet');
  return Promise.resolve(2);
}
