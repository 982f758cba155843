import { ref } from 'vue'

/**
 * Puts text on the clipboard. The async Clipboard API needs a secure context
 * and focus; where it refuses (an old Electron, a page without permission),
 * a hidden text area and the copy command do the same.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    const done = document.execCommand('copy')
    area.remove()
    return done
  }
}

/** A copy action with a short-lived confirmation for a status line ("Copied row 12"). */
export function useCopyFeedback(ms = 1800) {
  const message = ref('')
  let timer: ReturnType<typeof setTimeout> | null = null
  async function copy(text: string, what: string): Promise<void> {
    const done = await copyText(text)
    message.value = done ? `Copied ${what}` : `Could not copy ${what}: the clipboard refused`
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => (message.value = ''), ms)
  }
  return { message, copy }
}
