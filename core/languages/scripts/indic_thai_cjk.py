"""The languages of South, Southeast and East Asian scripts: Hindi (Devanagari), Thai, Chinese
and Korean (Hangul)."""

from __future__ import annotations

from core.languages.entry import Language, ParagraphRule, Splitting, Wiki
from core.languages.scripts import CHARS, LATIN_SENTENCE_ENDS, blank, xquad

HINDI = Language(
    code="hi",
    names={"en": "Hindi", "fr": "hindi"},
    native_name="हिन्दी",
    wiki=Wiki("hi.wikipedia.org", "श्रेणी", ("निर्वाचित लेख",)),
    end_matter=(
        "सन्दर्भ",
        "संदर्भ",
        "बाहरी कड़ियाँ",
        "इन्हें भी देखें",
        "टिप्पणियाँ",
        "ग्रन्थसूची",
    ),
    paragraphs=xquad(694),
    splitting=Splitting("।.!?…"),
    metric="mlqa-hi",
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("hi"),
    question_marks=("?",),
)

THAI = Language(
    code="th",
    names={"en": "Thai", "fr": "thaï"},
    native_name="ไทย",
    wiki=Wiki("th.wikipedia.org", "หมวดหมู่", ("บทความคัดสรร", "บทความคุณภาพ")),
    end_matter=("อ้างอิง", "แหล่งข้อมูลอื่น", "ดูเพิ่ม", "หมายเหตุ", "บรรณานุกรม"),
    paragraphs=xquad(661.5),
    # Thai writes no sentence-final mark: a space ends a sentence (and no word).
    splitting=Splitting("", words="tokenizer", word_tokenizer="pythainlp"),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("th", install="pythainlp"),
    # A Thai question ends with a particle (อะไร, ไหม...): 228 of XQuAD's 1,190 end with "?".
    question_marks=(),
)

CHINESE = Language(
    code="zh",
    names={"en": "Chinese", "fr": "chinois"},
    native_name="中文",
    wiki=Wiki("zh.wikipedia.org", "Category", ("典范条目", "优良条目")),
    end_matter=(
        "参考文献",
        "參考文獻",
        "参考资料",
        "參考資料",
        "外部链接",
        "外部連結",
        "参见",
        "參見",
        "注释",
        "註釋",
        "延伸阅读",
        "延伸閱讀",
        "脚注",
        "腳註",
    ),
    paragraphs=xquad(225),
    splitting=Splitting("。！？!?…", words="tokenizer", word_tokenizer="jieba"),
    metric="mlqa-zh",
    question_types=None,
    answer_types=None,
    # One token per character: spaCy's default Chinese segmenter, no install.
    mrqa_tokens=blank("zh", ("nlp.tokenizer.segmenter", "char")),
    question_marks=("？", "?"),
)

KOREAN = Language(
    code="ko",
    names={"en": "Korean", "fr": "coréen"},
    native_name="한국어",
    wiki=Wiki("ko.wikipedia.org", "분류", ("알찬 글", "좋은 글")),
    end_matter=("각주", "참고 문헌", "참고문헌", "외부 링크", "같이 보기", "내용주", "출처"),
    paragraphs=ParagraphRule(
        ratio=0.5,
        basis="estimate: XQuAD has no Korean; Hangul syllable blocks, about half "
        "English's characters (to be measured on parallel text)",
        measured=False,
    ),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="korquad-chars",
    question_types=None,
    answer_types=None,
    # spaCy's Korean tokenizer needs mecab-ko; its rule-based tokenizer splits on spaces
    # and punctuation.
    mrqa_tokens=blank("ko", ("nlp.tokenizer.@tokenizers", "spacy.Tokenizer.v1")),
    question_marks=("?",),
)
