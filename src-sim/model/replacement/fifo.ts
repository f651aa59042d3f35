import { lruVictim } from './lru';

/** First in, first out: the way filled longest ago is evicted; hits do not change the order. */
export const FIFO_NAME = 'fifo';
export const FIFO_DESCRIPTION = 'First in, first out: evicts the line filled longest ago; hits change nothing.';

/** FIFO keeps fill stamps (never refreshed on hit), so its victim is the oldest stamp too. */
export const fifoVictim = lruVictim;
