import { loadViewPrefs } from './composables/view-prefs'

// Imported first by main.ts: main is asked for the view preferences as soon as this much is read, and answers
// while the rest of the app's modules are run, instead of after them.
void loadViewPrefs()
