/** English: the Usage section (seats and limited features against the plan's limits). */
export default {
  'usage.loading': 'Loading usage…',
  'usage.intro': "What this account uses of its plan's limits.",
  'usage.seats': 'Seats',
  'usage.ofLimit': '{used, number} of {limit, number} used',
  'usage.unlimited': '{used, number} used · Unlimited',
  'usage.meterText': '{used, number} of {limit, number}',
  'usage.near': 'Almost at the limit.',
  'usage.atLimit': 'At the limit: nothing more can be added.',
  'usage.overLimit': 'Over the limit.',
  'usage.upgrade': 'See plans',
  'usage.noFeatures': 'No other feature of this plan is limited.',
  'usage.features': 'Limited features',
  'usage.loadFailed': 'Usage could not be loaded.',
};
