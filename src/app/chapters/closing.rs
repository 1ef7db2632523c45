//! What closes the book: a timeline of the methods, each entry linked to its figure, and a quiz
//! a reader answers by moving figures — every explanation links to a figure in the state that
//! shows the answer. The reader's answers live only in the page, never in the URL.

use leptos::prelude::*;

use crate::explain::tables::QUIZ_T5_WHY;

/// One timeline entry: year, what appeared, who, and the figure (with its state) that shows it.
struct Moment {
    year: &'static str,
    what: &'static str,
    who: &'static str,
    link: &'static str,
}

const TIMELINE: [Moment; 17] = [
    Moment {
        year: "2017",
        what: "Learned absolute positions",
        who: "ConvS2S (Gehring et al.); then GPT and BERT (2018)",
        link: "#fig-tab-learned",
    },
    Moment {
        year: "2017",
        what: "Sinusoidal positions added to the input",
        who: "Vaswani et al., the Transformer",
        link: "#fig-heatmap",
    },
    Moment {
        year: "2018",
        what: "Relative positions clipped at ±k, inside attention",
        who: "Shaw, Uszkoreit & Vaswani",
        link: "#fig-tab-shaw",
    },
    Moment {
        year: "2019",
        what: "Relative sinusoidal positions with learned content and position biases",
        who: "Transformer-XL (Dai et al.)",
        link: "#fig-tab-txl",
    },
    Moment {
        year: "2019",
        what: "Deep Transformer language models need no positional encoding",
        who: "Irie et al. (Interspeech)",
        link: "#fig-tab-nope",
    },
    Moment {
        year: "2019",
        what: "Bucketed relative biases, one scalar per bucket and head",
        who: "T5 (Raffel et al.)",
        link: "#fig-tab-t5",
    },
    Moment {
        year: "2021",
        what: "Rotary position embedding: rotate q and k",
        who: "RoFormer (Su et al.)",
        link: "#fig-rope-2d",
    },
    Moment {
        year: "2021",
        what: "Linear biases, one fixed slope per head",
        who: "ALiBi (Press, Smith & Lewis; ICLR 2022)",
        link: "#fig-tab-slopes",
    },
    Moment {
        year: "2022",
        what: "Causal language models without positional encoding, probed for position",
        who: "Haviv et al. (“NoPos”)",
        link: "#fig-tab-nope",
    },
    Moment {
        year: "2023",
        what: "No positional encoding (named NoPE) generalises to longer inputs on small tasks",
        who: "Kazemnejad et al.",
        link: "#fig-tab-nope",
    },
    Moment {
        year: "2023",
        what: "Position interpolation: divide every frequency by s",
        who: "Chen et al.",
        link: "?c.type=linear#fig-ctx-wavelengths",
    },
    Moment {
        year: "2023",
        what: "NTK-aware scaling: raise the base instead; then dynamic NTK",
        who: "bloc97 (Reddit); dynamic NTK by emozilla (Reddit)",
        link: "?c.type=ntk#fig-ctx-wavelengths",
    },
    Moment {
        year: "2023",
        what: "YaRN: interpolate only the slow pairs, sharpen the softmax",
        who: "Peng et al.",
        link: "?c.type=yarn#fig-ctx-wavelengths",
    },
    Moment {
        year: "2024",
        what: "LongRoPE's searched per-pair factors",
        who: "Ding et al.",
        link: "?c.type=longrope#fig-ctx-wavelengths",
    },
    Moment {
        year: "2024",
        what: "Llama 3.1's frequency bands",
        who: "Meta",
        link: "?c.type=llama3#fig-ctx-wavelengths",
    },
    Moment {
        year: "2024",
        what: "NoPE layers among RoPE layers in shipped models",
        who: "Cohere's Command R7B (Cohere2: its global-attention layers); Llama 4 and SmolLM3 \
              (2025: every fourth layer)",
        link: "#fig-tab-nope",
    },
    Moment {
        year: "2025",
        what: "DroPE: drop RoPE after pretraining, recalibrate briefly at the original length",
        who: "Gelberg, Eguchi, Akiba & Cetin (Sakana AI)",
        link: "#fig-tab-drope",
    },
];

/// The timeline, 2017 to today.
#[component]
pub fn Timeline() -> impl IntoView {
    let mut moments: Vec<&Moment> = TIMELINE.iter().collect();
    moments.sort_by_key(|m| m.year);
    view! {
        <ol class="timeline" aria-label="Timeline of positional encodings">
            {moments
                .into_iter()
                .map(|m| {
                    view! {
                        <li>
                            <span class="year">{m.year}</span>
                            <span class="what">
                                <a href=m.link>{m.what}</a>
                                <span class="who">{m.who}</span>
                            </span>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}

/// One question: its options (the right one marked), the explanation, and the figure link (with
/// the state that shows the answer) plus a phrase that figure then shows, which the browser tests
/// look for.
struct Question {
    ask: &'static str,
    options: [&'static str; 3],
    right: usize,
    why: &'static str,
    link: &'static str,
    shows: &'static str,
}

/// How many questions the quiz asks (the chapter's text says so).
pub const QUESTIONS: usize = QUIZ.len();

const QUIZ: [Question; 9] = [
    Question {
        ask: "Can sinusoidal positional encoding handle sequences longer than those seen during \
              training?",
        options: [
            "No: like a learned table, it has no vector past the training length.",
            "It has a vector for every position, but nothing guarantees the model uses unseen \
             ones well.",
            "Yes: any model trained with it reads any length equally well.",
        ],
        right: 1,
        why: "The table is a formula, so every position has a row; Press et al. (2022) measured \
              sinusoidal models degrading past their training length anyway.",
        link: "?t.L=512&t.n=1024#fig-tab-learned",
        shows: "The sinusoidal rows continue",
    },
    Question {
        ask: "A model with a learned table of 512 rows reads a 600-token text. What does token 550 \
              get as its position?",
        options: [
            "The row of position 550 mod 512.",
            "The last row, 511.",
            "Nothing: the table has no row 550.",
        ],
        right: 2,
        why: "A learned table is a lookup: positions 512 … 599 have no vector at all.",
        link: "?t.L=512&t.n=600#fig-tab-learned",
        shows: "88 of the 600 positions (512 … 599) have no learned vector",
    },
    Question {
        ask: "With RoPE, the words “ate” and “cheese” are moved further into a sentence, keeping \
              their distance (and their q and k vectors). What happens to the angle between them?",
        options: [
            "It grows with the position.",
            "It stays the same.",
            "It depends on the words in front of them.",
        ],
        right: 1,
        why: "Both vectors turn by the same extra angle, so the angle between them depends only \
              on their distance.",
        link: "?r.stheta=40#fig-rope-sentences",
        shows: "same angle",
    },
    Question {
        ask: "ALiBi with 12 heads, in the authors' code (and BLOOM): where do heads 9 to 12 take \
              their slopes from?",
        options: [
            "From 2^(−8h/12), the general rule the paper states.",
            "They repeat the slopes of heads 1 to 4.",
            "From every other slope of the 16-head sequence.",
        ],
        right: 2,
        why: "12 is not a power of two: in the authors' code (get_slopes), as in BLOOM and MPT, \
              heads 1 … 8 take the 8-head slopes and heads 9 … 12 slopes 1, 3, 5 and 7 of the \
              16-head sequence. The paper's §3 states the general rule 2^(−8h/n) instead, which \
              gives other numbers; its authors trained only powers of two.",
        link: "?t.h=12#fig-tab-slopes",
        shows: "heads 9 … 12 take slopes 1, 3, …, 7 of the 16-head sequence",
    },
    Question {
        ask: "Of 8 ALiBi heads, with equal content scores, how far back must a key be for the \
              last head to give it half the weight of the query's own key?",
        options: [
            "About 2 positions.",
            "About 177 positions.",
            "It never halves.",
        ],
        right: 1,
        why: "Its slope is 1/256, and the weight halves every ln 2 / m ≈ 177 positions.",
        link: "?t.head=8#fig-tab-alibi-attention",
        shows: "its weight halves every 177.4 positions",
    },
    Question {
        ask: "In Transformer-XL, which of the four terms of a score is the same for every query \
              that looks at a given key word, at any distance?",
        options: [
            "(b), the content-dependent positional bias.",
            "(c), the global content bias.",
            "(d), the global positional bias.",
        ],
        right: 1,
        why: "Term (c) puts a learned vector u in place of the query and has no distance in it: \
              u·W_{k,E}E_j depends on the key word only, so its matrix is one colour down each \
              column. (b) depends instead on the query word and the distance, (d) on the distance \
              alone.",
        link: "?t.xterm=c#fig-tab-txl",
        shows: "Term (c) depends on the key word only",
    },
    Question {
        ask: "T5 with 32 buckets and max_distance 128: can one layer's position bias tell a key \
              200 positions back from one 1000 positions back?",
        options: [
            "Yes, every distance has its own bucket.",
            "Only roughly, in wide logarithmic buckets.",
            "No: both fall in the same last bucket.",
        ],
        right: 2,
        why: QUIZ_T5_WHY,
        link: "?t.tn=300#fig-tab-t5",
        shows: "every distance from 91 on, max_distance = 128 included, shares the last bucket",
    },
    Question {
        ask: "A decoder has no positional encoding at all. Can it know where a token is?",
        options: [
            "No: without an encoding, attention is blind to order.",
            "Yes: its causal mask makes each token average a different number of values.",
            "Only if the text is shorter than 512 tokens.",
        ],
        right: 1,
        why: "With equal scores, token i averages i + 1 values; if those are independent with \
              unit variance, its output's variance is 1/(i + 1): a signal of position. (The \
              first answer is true of an encoder, whose attention has no mask.)",
        link: "?t.nn=512#fig-tab-nope",
        shows: "without any positional encoding",
    },
    Question {
        ask: "DroPE removes a RoPE model's rotation. In the toy of its figure, a key equal to \
              the query moves farther back among random keys. What happens to its attention \
              weight?",
        options: [
            "It stays the same at every distance.",
            "It falls as under RoPE, only more slowly.",
            "It grows: far keys are preferred.",
        ],
        right: 0,
        why: "Without the rotation the score is q·k/√d, with no position in it, so with the \
              same keys competing the weight is the same at every distance (in a text, a \
              farther key competes with more keys); order must then come from the causal mask, as in \
              NoPE, and the model needs recalibrating because its weights were trained with \
              the rotation.",
        link: "?t.ds=16#fig-tab-drope",
        shows: "the score reads content alone, so where the key is changes nothing",
    },
];

/// The quiz: pick an option, read why, open the figure that shows it.
#[component]
pub fn Quiz() -> impl IntoView {
    view! {
        <div class="quiz">
            {QUIZ
                .iter()
                .enumerate()
                .map(|(k, q)| {
                    let picked = RwSignal::new(None::<usize>);
                    let name = format!("quiz-{k}");
                    view! {
                        <fieldset class="question">
                            <legend>{format!("{}. {}", k + 1, q.ask)}</legend>
                            {q
                                .options
                                .iter()
                                .enumerate()
                                .map(|(i, text)| {
                                    view! {
                                        <label>
                                            <input
                                                type="radio"
                                                name=name.clone()
                                                on:change=move |_| picked.set(Some(i))
                                            />
                                            <span>{*text}</span>
                                        </label>
                                    }
                                })
                                .collect_view()}
                            <p class="answer" aria-live="polite">
                                {move || {
                                    picked
                                        .get()
                                        .map(|i| {
                                            view! {
                                                <strong>
                                                    {if i == q.right { "Right. " } else { "Not quite. " }}
                                                </strong>
                                                {q.why}
                                                " "
                                                <a
                                                    href=q.link
                                                    target="_blank"
                                                    rel="noopener"
                                                    data-shows=q.shows
                                                >
                                                    "See it in the figure ↗"
                                                </a>
                                            }
                                        })
                                }}
                            </p>
                        </fieldset>
                    }
                })
                .collect_view()}
        </div>
    }
}
