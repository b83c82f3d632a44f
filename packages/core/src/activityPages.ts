/** How many transfers an activity page (`GET /api/activity`) holds when the query does not say. */
export const DEFAULT_ACTIVITY_PAGE_SIZE = 50;

/** The most transfers one activity page may hold (`limit`); the web app asks for more in several pages. */
export const MAX_ACTIVITY_PAGE_SIZE = 100;
