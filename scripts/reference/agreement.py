#!/usr/bin/python3
"""The agreement figures of src/shared/relevance/rater-agreement.ts, computed by the public references.

Reads {"scale": [0, 1, 2, 3], "judgments": [{"query", "item", "rater", "grade"}], "raters": [{"name", "kind"}]}
on stdin and prints {"pairs", "fleiss", "alpha", "queries"} as JSON, null where a reference gives NaN or refuses.

References: scikit-learn's cohen_kappa_score (1.2), statsmodels' fleiss_kappa (0.13), and the `krippendorff`
package's own source (github:pln-fing-udelar/fast-krippendorff), imported from the folder given by
--krippendorff DIR (the folder that holds krippendorff/krippendorff.py) when it is not installed.
Run it with Debian's /usr/bin/python3, which has scikit-learn, statsmodels and numpy.
"""
import argparse
import json
import math
import sys
import warnings
from collections import Counter

import numpy as np
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa

parser = argparse.ArgumentParser()
parser.add_argument("--krippendorff", help="folder holding the krippendorff package's source")
args = parser.parse_args()
if args.krippendorff:
    sys.path.insert(0, args.krippendorff)
from krippendorff.krippendorff import alpha as krippendorff_alpha  # noqa: E402

warnings.simplefilter("ignore")


def finite(value):
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


data = json.load(sys.stdin)
scale = data["scale"]
raters = [rater["name"] for rater in data.get("raters", [])]
grades = {}  # (query, item) -> {rater: grade}, a rater's later grade winning
for judgment in data["judgments"]:
    if judgment["grade"] not in scale:
        continue
    if judgment["rater"] not in raters:
        raters.append(judgment["rater"])
    grades.setdefault((judgment["query"], judgment["item"]), {})[judgment["rater"]] = judgment["grade"]
units = list(grades)

pairs = []
for i, a in enumerate(raters):
    for b in raters[i + 1:]:
        both = [unit for unit in units if a in grades[unit] and b in grades[unit]]
        ya = [grades[unit][a] for unit in both]
        yb = [grades[unit][b] for unit in both]
        figures = {"a": a, "b": b, "n": len(both)}
        if both:
            figures["agreement"] = sum(x == y for x, y in zip(ya, yb)) / len(both)
            for name, weights in (("kappa", None), ("kappaLinear", "linear"), ("kappaQuadratic", "quadratic")):
                figures[name] = finite(cohen_kappa_score(ya, yb, labels=scale, weights=weights))
        else:
            figures.update(agreement=None, kappa=None, kappaLinear=None, kappaQuadratic=None)
        pairs.append(figures)

# Fleiss: the items graded by the most common number of raters, two or more (ties to the larger).
sizes = Counter(len(grades[unit]) for unit in units if len(grades[unit]) >= 2)
fleiss = {"n": 0, "raters": None, "kappa": None}
if sizes and len(raters) >= 2:
    m = max(sizes, key=lambda size: (sizes[size], size))
    table = [[list(grades[unit].values()).count(grade) for grade in scale] for unit in units if len(grades[unit]) == m]
    fleiss = {"n": len(table), "raters": m, "kappa": finite(fleiss_kappa(np.array(table), method="fleiss"))}


def alpha(unit_list, level):
    if len(raters) < 2:
        return None
    data_matrix = np.array([[grades[unit].get(rater, np.nan) for unit in unit_list] for rater in raters], dtype=float)
    try:
        return finite(krippendorff_alpha(reliability_data=data_matrix, value_domain=scale, level_of_measurement=level))
    except ValueError:
        return None


pairable = [unit for unit in units if len(grades[unit]) >= 2]
result = {
    "pairs": pairs,
    "fleiss": fleiss,
    "alpha": {"n": len(pairable), **{level: alpha(units, level) for level in ("nominal", "ordinal", "interval")}},
    "queries": [],
}
for query in dict.fromkeys(unit[0] for unit in units):
    own = [unit for unit in units if unit[0] == query]
    result["queries"].append({"id": query, "n": sum(len(grades[unit]) >= 2 for unit in own), "alpha": alpha(own, "ordinal")})
json.dump(result, sys.stdout)
