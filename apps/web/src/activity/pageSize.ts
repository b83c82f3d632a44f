/**
 * How many entries the activity list loads at a time: its first page, and each "Show more". A module of its
 * own, without imports, so that the bench can check it asks for the same page (bench/activity.test.mjs).
 */
export const PAGE_SIZE = 10;
