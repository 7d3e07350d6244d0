/**
 * The console's fixed paths, apart from the route table so that pages the table loads lazily can
 * use them without importing the table (an import cycle).
 */
export const HOME_PATH = '/';
export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
/** Where `/` leads. */
export const ROOT_REDIRECT = '/shack/status/overview';
/** A tab refresh goes through here. */
export const REDIRECT_PREFIX = '/redirect';
export const SCREEN_PATH = '/screenDatav/home';
