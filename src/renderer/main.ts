import './early-view-prefs'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { prefetchAfterFirstFrame } from './components/explorer/views'
import { loadViewPrefs } from './composables/view-prefs'
import './styles/app.css'

// The view preferences (open panels, view, theme) come from main first, so the window's first paint shows them as kept.
void loadViewPrefs().then(() => {
  createApp(App).use(createPinia()).mount('#app')
  prefetchAfterFirstFrame()
})
