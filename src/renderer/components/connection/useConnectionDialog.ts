import { computed, nextTick, reactive, ref } from 'vue'
import type { TokenRequestKind } from '../../../shared/auth'
import {
  checkConnectionRules,
  deadlineProblemMessage,
  SECRET_NEEDS_CLIENT_ID,
  type ConnectionProblem,
} from '../../../shared/connections/connection-rules'
import type { ConnectionCheckResult, ConnectionInput, ConnectionView } from '../../../shared/ipc/contract'
import { ExplorerClientError, errorMessage } from '../../api/explorer-client'
import { useModalDialog } from '../../composables/useModalDialog'
import { useConnectionsStore } from '../../stores/connections'
import { useToastsStore } from '../../stores/toasts'
import { CONNECTION_PRESETS, type ConnectionPreset } from './connection-presets'

export interface ConnectionDialogProps {
  /** The profile opened; null for a new one. */
  connectionId: string | null
}

/** What the dialog tells its opener. */
export interface ConnectionDialogEvents {
  saved: (id: string) => void
  close: () => void
}

export const FIELDS = ['name', 'authUrl', 'queryUrl', 'version', 'workspace', 'api', 'config', 'clientId'] as const
export type Field = (typeof FIELDS)[number]
type ProblemField = Field | 'secret' | 'deadlineSeconds' | 'audience'
type Action = 'save' | 'test' | 'delete' | 'duplicate'

const FAILED_HEADINGS = { save: 'Not saved.', test: 'Not tested.', delete: 'Not deleted.', duplicate: 'Not duplicated.' } as const

const LABELS: Record<Field, string> = {
  name: 'Name',
  authUrl: 'Auth URL',
  queryUrl: 'Query URL',
  version: 'Version',
  workspace: 'Workspace',
  api: 'API',
  config: 'Config',
  clientId: 'Client ID',
}
const HINTS: Partial<Record<Field, string>> = {
  version: 'Optional, e.g. 4.',
  api: 'The API queried by default.',
  config: 'Left empty: default.',
  clientId: 'Empty for a public API.',
}
const PLACEHOLDERS: Partial<Record<Field, string>> = {
  authUrl: 'https://auth.example.com',
  queryUrl: 'https://query.example.com',
  version: 'none',
  config: 'default',
}
const TOKEN_REQUESTS: readonly { value: TokenRequestKind; label: string }[] = [
  { value: 'json', label: 'JSON (POST /api/auth)' },
  { value: 'oauth', label: 'OAuth 2.0 client credentials (POST /oauth/token)' },
]
const STEP_NAMES: Record<ConnectionCheckResult['checks'][number]['step'], string> = {
  access: 'Access without a token',
  token: 'Token request',
  description: 'API description',
  status: 'Status',
}

/**
 * The connection form's logic: the profile's fields, the problems the shared
 * connection rules find before anything is sent, and Save, Test, Duplicate,
 * Delete and Forget secret through the connections store.
 */
export function useConnectionDialog(props: ConnectionDialogProps, on: ConnectionDialogEvents) {
  const store = useConnectionsStore()
  const toasts = useToastsStore()
  const { dialog } = useModalDialog({ focus: 'input:not([readonly])' })

  /** The profile shown: the one opened, or the new one once it is saved. */
  const currentId = ref<string | null>(props.connectionId)
  const existing = computed(() => (currentId.value ? (store.connections.find((c) => c.id === currentId.value) ?? null) : null))
  const readOnly = computed(() => existing.value?.builtIn ?? false)
  const title = computed(() => (!existing.value ? 'New connection' : readOnly.value ? `${existing.value.name} connection` : 'Edit connection'))

  const form = reactive<Record<Field, string>>({
    name: existing.value?.name ?? '',
    authUrl: existing.value?.authUrl ?? '',
    queryUrl: existing.value?.queryUrl ?? '',
    version: existing.value?.version ?? '',
    workspace: existing.value?.workspace ?? '',
    api: existing.value?.api ?? '',
    config: existing.value?.config ?? '',
    clientId: existing.value?.clientId ?? '',
  })
  const secret = ref('')
  /** How tokens are asked for: the seed's JSON route (the default) or OAuth 2.0 client credentials. */
  const tokenRequest = ref<TokenRequestKind>(existing.value?.tokenRequest ?? 'json')
  /** Advanced: seconds a whole request may take; empty means the default (60 s). */
  const deadline = ref(existing.value?.deadlineSeconds?.toString() ?? '')
  /** Advanced, OAuth only: the token request's audience; empty sends the query URL exactly as typed. */
  const audience = ref(existing.value?.audience ?? '')
  const saved = reactive({ ...form, deadline: deadline.value, tokenRequest: tokenRequest.value, audience: audience.value })
  const dirty = computed(
    () =>
      !existing.value ||
      FIELDS.some((field) => form[field] !== saved[field]) ||
      secret.value !== '' ||
      deadline.value !== saved.deadline ||
      tokenRequest.value !== saved.tokenRequest ||
      audience.value !== saved.audience,
  )

  /** A new connection's starting point (connection-presets.ts); the seed's own form until another is chosen. */
  const preset = ref<ConnectionPreset['id']>('seed')
  /**
   * Fills in what the chosen kind of deployment always has, and keeps what
   * the user typed of their own (workspace, API, client ID, secret). A name
   * is given only where none was typed, or where it was another preset's.
   */
  async function choosePreset(id: ConnectionPreset['id']): Promise<void> {
    const chosen = CONNECTION_PRESETS.find((candidate) => candidate.id === id)
    if (!chosen) return
    preset.value = id
    const presetNames = CONNECTION_PRESETS.map((candidate) => candidate.name)
    if (!form.name.trim() || presetNames.includes(form.name)) form.name = chosen.name
    Object.assign(form, { queryUrl: chosen.queryUrl, authUrl: chosen.authUrl, version: chosen.version })
    tokenRequest.value = chosen.tokenRequest
    problems.value = {}
    if (!chosen.placeholder) return
    // The one thing to change in the URL is selected, so typing replaces it.
    await nextTick()
    const box = dialog.value?.querySelector<HTMLInputElement>('input[aria-label="Query URL"]')
    const at = chosen.queryUrl.indexOf(chosen.placeholder)
    box?.focus()
    box?.setSelectionRange(at, at + chosen.placeholder.length)
  }

  const busy = ref<Action | null>(null)
  const problems = ref<Partial<Record<ProblemField, string>>>({})
  const formError = ref<string | null>(null)
  /** What the failure in `formError` stopped, for its heading. */
  const failedAction = ref<Action>('save')
  const notice = ref<string | null>(null)
  const testResult = ref<ConnectionCheckResult | null>(null)
  const confirmingDelete = ref(false)


  function input(): ConnectionInput {
    return {
      ...(existing.value ? { id: existing.value.id } : {}),
      name: form.name,
      authUrl: form.authUrl,
      queryUrl: form.queryUrl,
      ...(form.version.trim() ? { version: form.version } : {}),
      workspace: form.workspace,
      api: form.api,
      ...(form.config.trim() ? { config: form.config } : {}),
      // The shared rules check it (a whole number of seconds, 1 to 600), here and again in the main process.
      ...(deadline.value.trim() ? { deadlineSeconds: Number(deadline.value.trim()) } : {}),
      clientId: form.clientId,
      // Left out for the default, so profiles saved before the choice existed compare equal.
      ...(tokenRequest.value === 'oauth' ? { tokenRequest: 'oauth' as const } : {}),
      // Only OAuth sends one; the shared rules trim it and leave an empty one out.
      ...(tokenRequest.value === 'oauth' && audience.value.trim() ? { audience: audience.value } : {}),
    }
  }

  /** The outcome is under the fields: in a short window it would be out of sight without this. */
  async function reveal(): Promise<void> {
    await nextTick()
    dialog.value?.querySelector('.cd-checks, .alert')?.scrollIntoView({ block: 'nearest' })
  }

  /** Shows problems per field, and all their sentences in the alert (as the main process words a validation error). */
  function showProblems(found: readonly ConnectionProblem[], message: string): void {
    problems.value = {}
    for (const problem of found) {
      const field = problem.field.split('.').pop() as ProblemField
      problems.value[field] = problem.message
    }
    formError.value = message
    void reveal()
  }

  function showError(e: unknown, action: Action = 'save'): void {
    failedAction.value = action
    showProblems(e instanceof ExplorerClientError ? (e.error.problems ?? []) : [], errorMessage(e))
    if (e instanceof ExplorerClientError && e.error.code === 'keychain') void store.refresh()
  }

  /** What the shared connection rules find wrong with the form, the deadline named as typed. */
  function formProblems(): ConnectionProblem[] {
    if (!form.clientId.trim() && secret.value) return [SECRET_NEEDS_CLIENT_ID]
    const typedDeadline = deadline.value.trim()
    return checkConnectionRules(input()).problems.map((problem) =>
      problem.field === 'deadlineSeconds' ? { ...problem, message: deadlineProblemMessage(typedDeadline) } : problem,
    )
  }

  /** Problems the form can name before asking the main process; false (with the problems shown) when there are any. */
  function formReady(action: 'save' | 'test'): boolean {
    failedAction.value = action
    const found = formProblems()
    if (found.length === 0) return true
    showProblems(found, found.map((problem) => problem.message).join('\n'))
    return false
  }

  function fill(view: ConnectionView): void {
    Object.assign(form, {
      name: view.name, authUrl: view.authUrl, queryUrl: view.queryUrl, version: view.version ?? '',
      workspace: view.workspace, api: view.api, config: view.config ?? '', clientId: view.clientId,
    })
    deadline.value = view.deadlineSeconds?.toString() ?? ''
    tokenRequest.value = view.tokenRequest ?? 'json'
    audience.value = view.audience ?? ''
    Object.assign(saved, form, { deadline: deadline.value, tokenRequest: tokenRequest.value, audience: audience.value })
  }

  /** Clears the outcome of the last action before the next one. */
  function resetOutcome(): void {
    formError.value = null
    notice.value = null
    problems.value = {}
    testResult.value = null
  }

  /**
   * Saves the profile (and the secret, if one was typed), then closes with a
   * short confirmation. The dialog stays open when something failed, or when
   * the main process removed the stored secret (the auth URL moved): the form
   * then asks for it again.
   */
  async function onSave(): Promise<void> {
    resetOutcome()
    if (!dirty.value && existing.value) {
      on.saved(existing.value.id)
      on.close()
      return
    }
    if (!formReady('save')) return
    busy.value = 'save'
    try {
      const { view, storedIn } = await store.save(input(), secret.value || undefined)
      secret.value = ''
      fill(view)
      currentId.value = view.id
      on.saved(view.id)
      if (view.notice) {
        notice.value = view.notice
        return
      }
      const where =
        storedIn === 'memory'
          ? ' The client secret is kept in memory for this run only: no OS keychain is available.'
          : storedIn === 'os'
            ? ' The client secret is in the OS keychain.'
            : ''
      toasts.show(`Saved “${view.name}”.${where}`, { key: 'connection-saved' })
      on.close()
    } catch (e) {
      showError(e, 'save')
    } finally {
      busy.value = null
    }
  }

  /** Tests what the form holds, saved or not, and saves nothing: a typed secret is used for this test only. */
  async function onTest(): Promise<void> {
    resetOutcome()
    if (!formReady('test')) return
    busy.value = 'test'
    try {
      testResult.value = await store.check(input(), secret.value || undefined)
      void reveal()
    } catch (e) {
      showError(e, 'test')
    } finally {
      busy.value = null
    }
  }

  /**
   * Saves a copy of the profile shown (its client secret copied by the main
   * process) and opens it here, ready to change its API or config.
   */
  async function onDuplicate(): Promise<void> {
    const source = existing.value
    if (!source) return
    resetOutcome()
    if (dirty.value) {
      // The copy is made from the saved profile: edits typed here would silently not be in it.
      failedAction.value = 'duplicate'
      formError.value = 'Duplicate copies the saved connection: save or undo your changes first.'
      void reveal()
      return
    }
    busy.value = 'duplicate'
    try {
      const copy = await store.duplicate(source.id)
      secret.value = ''
      fill(copy)
      currentId.value = copy.id
      notice.value = copy.hasSecret
        ? `Saved as “${copy.name}” with the client secret of “${source.name}”. Change what differs, then Save.`
        : `Saved as “${copy.name}”. Enter its client secret, change what differs, then Save.`
      await nextTick()
      dialog.value?.querySelector<HTMLInputElement>('input[aria-label="Name"]')?.select()
    } catch (e) {
      showError(e, 'duplicate')
    } finally {
      busy.value = null
    }
  }

  async function onDelete(): Promise<void> {
    if (!existing.value) return
    busy.value = 'delete'
    try {
      await store.remove(existing.value.id)
      on.close()
    } catch (e) {
      showError(e, 'delete')
      confirmingDelete.value = false
    } finally {
      busy.value = null
    }
  }

  async function onClearSecret(): Promise<void> {
    if (!existing.value) return
    try {
      await store.clearSecret(existing.value.id)
      notice.value = 'The stored client secret was removed.'
    } catch (e) {
      showError(e, 'save')
    }
  }

  const secretPlaceholder = computed(() => {
    if (!existing.value?.hasSecret) return 'Not stored yet'
    return existing.value.secretStore === 'memory' ? 'Stored in memory for this run; type to replace' : 'Stored in the OS keychain; type to replace'
  })

  /** The auth URL's hint names the route the chosen token request goes to. */
  const hintOf = (field: Field): string | undefined =>
    field === 'authUrl'
      ? tokenRequest.value === 'oauth'
        ? 'Tokens are requested with POST <auth URL>/oauth/token (form-encoded client credentials).'
        : 'Tokens are requested with POST <auth URL>/api/auth (JSON).'
      : HINTS[field]

  /** What an empty Audience sends: the query URL exactly as typed, as the official clients send it. */
  const audienceHint = computed(() => {
    const url = form.queryUrl.trim()
    return url
      ? `Left empty, the query URL exactly as typed is sent: ${url}. Set it when your auth server knows the API by another name.`
      : 'Left empty, the query URL exactly as typed is sent (a trailing slash included).'
  })

  return {
    store, dialog, existing, readOnly, title,
    form, secret, tokenRequest, deadline, audience, audienceHint,
    preset, choosePreset, PRESETS: CONNECTION_PRESETS,
    busy, problems, formError, failedAction, notice, testResult, confirmingDelete,
    secretPlaceholder, hintOf,
    onSave, onTest, onDuplicate, onDelete, onClearSecret,
    FIELDS, LABELS, PLACEHOLDERS, TOKEN_REQUESTS, STEP_NAMES, FAILED_HEADINGS,
  }
}
