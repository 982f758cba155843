/** Performance marks read by `npm run bench` (and visible in DevTools): press of Run, reply in, rows painted. */
export const MARKS = { run: 'qe:run', reply: 'qe:reply', painted: 'qe:painted' } as const
