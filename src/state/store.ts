// The one jotai store of the app. Code outside React (route guards, API clients, boot) reads and
// writes the same atoms through it; React components get it from <Provider store={appStore}>.
import { createStore } from 'jotai';

export type AppStore = ReturnType<typeof createStore>;

export const appStore: AppStore = createStore();
