import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { SetAgreementReply } from '../../shared/ipc/relevance-contract'
import { DEFAULT_DISAGREEMENT_STEPS } from '../../shared/relevance/disagreements'
import { call, errorMessage } from '../api/explorer-client'
import { latestCall } from './latest-call'
import { useQuerySetsStore } from './query-sets'
import { useWorkspaceStore } from './workspace'

/**
 * The Evaluation view's Agreement part, shared by its figures and its table
 * of disagreements: the chosen set's agreement report (`sets:agreement`,
 * computed by main in a thread, settled disagreements included so a row
 * settled stays in view with its grade), the steps the disagreements differ
 * by, and settling one (`sets:settle`), after which the set and the figures
 * are read again (the metrics follow the set).
 */
export const useAgreementStore = defineStore('agreement', () => {
  const sets = useQuerySetsStore()
  const workspace = useWorkspaceStore()

  /** The Evaluation view's part shown, kept here so that coming back from a query opened in Results finds the Agreement part again. */
  const part = ref<'figures' | 'agreement' | 'judges'>('figures')
  const report = shallowRef<SetAgreementReply | null>(null)
  /** The set the report is of. */
  const reportSet = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const steps = ref(DEFAULT_DISAGREEMENT_STEPS)
  const latest = latestCall()

  /** Reads the chosen set's figures again; the newest call's answer is the one kept. */
  async function load(): Promise<void> {
    const name = sets.chosen
    const current = latest.start()
    if (name === null) {
      report.value = null
      reportSet.value = null
      return
    }
    loading.value = true
    error.value = null
    try {
      const found = await call('sets:agreement', { set: name, steps: steps.value, settled: true })
      if (!current()) return
      report.value = found
      reportSet.value = name
    } catch (e) {
      if (current()) error.value = errorMessage(e)
    } finally {
      if (current()) loading.value = false
    }
  }

  /** The adjudicated grade of an item of the chosen set; the set (and so the metrics) and the figures follow. */
  async function settle(query: string, item: string, grade: number | null): Promise<void> {
    const name = sets.chosen
    if (name === null) return
    workspace.show(await call('sets:settle', { set: name, query, item, grade }))
    // Read again: the Evaluation view's figures rescore with the set, the Agreement part's figures follow it (its watch).
    await sets.choose(name)
  }

  return { part, report, reportSet, loading, error, steps, load, settle }
})
