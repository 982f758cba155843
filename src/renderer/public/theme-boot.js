// A blocking script in <head>: it sets the theme before the first paint, so a
// window never flashes the other theme while the app's module loads. The app
// (src/renderer/theme/theme.ts, same storage key) takes over from here.
;(function () {
  var choice = null
  try {
    choice = localStorage.getItem('query-explorer.theme')
  } catch (e) {
    // Storage can be switched off; the system's preference still applies.
  }
  var dark = choice === 'dark' || (choice !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches)
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
})()
