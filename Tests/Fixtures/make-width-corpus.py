#!/usr/bin/env python3
"""Writes width-corpus.txt: headline-like strings across scripts and emoji, one per line,
for the width tests (docs/decisions.md 22). Deterministic; run it from this folder.
Each line is `CLASS<TAB>TEXT`; CLASS names what the line exercises."""

latin = [
    "Café owners in Zürich brace for a colder winter",
    "São Paulo’s mayor unveils a plan for 1,200 new buses",
    "Ærø ferry service resumes after storm; Łódź trams delayed",
    "Crème brûlée wins the village fête for the 3rd year",
    "Ångström-scale chips: what Eindhoven’s lab really built",
    "Dvořák festival opens in Brno with 42 concerts",
    "Ísafjörður fishermen report a record cod season",
    "Göteborg och Malmö får nya spårvagnar 2027",
    "Şanlıurfa’da arkeologlar yeni bir tapınak buldu",
    "Việt Nam xuất khẩu gạo tăng mạnh trong quý ba",
    "Nguyễn Thị Ánh Viên phá kỷ lục quốc gia",
    "Kraków’s Wawel hosts a Chopin night under the stars",
]
latin_combining = [
    "Cafe\u0301 owners in Zu\u0308rich brace for a colder winter",
    "Sa\u0303o Paulo mayor unveils a plan for new buses",
    "Cre\u0300me bru\u0302le\u0301e wins the fe\u0302te again",
    "Vie\u0323\u0302t Nam: xua\u0302\u0301t kha\u0309u ga\u0323o ta\u0306ng",
    "Zalgo spam e\u0301\u0301\u0301\u0301\u0301\u0301 floods the comment section",
    "Ph\u1edf and b\u00e1nh m\u00ec stalls return to the night market",
]
greek_cyrillic = [
    "Αθήνα: νέα μέτρα για την ακρίβεια στα τρόφιμα",
    "Η Θεσσαλονίκη φιλοξενεί τη Διεθνή Έκθεση για 88η φορά",
    "Ελλάδα – Τουρκία: συνάντηση κορυφής τον Δεκέμβριο",
    "Москва: метро откроет пять новых станций в декабре",
    "Київ відновлює енергопостачання після атаки",
    "Беларусь і Польшча абмеркавалі памежныя пераходы",
    "София посреща 30 000 души на коледния базар",
    "Београд: нови мост преко Саве биће готов 2028.",
    "Қазақстан астанасында жаңа әуежай ашылды",
    "Ереван-ը ընդունում է նոր օդանավակայան",
]
arabic_hebrew = [
    "القاهرة تستضيف قمة المناخ الإقليمية الأسبوع المقبل",
    "الرياض: افتتاح أكبر مكتبة عامة في المنطقة",
    "دُبَيّ تُعلِنُ عن مَترو جَديد بِطول ٣٠ كيلومتراً",
    "بيروت — عودة الكهرباء إلى الأحياء الجنوبية",
    "تهران: قیمت نان دوباره افزایش یافت",
    "کراچی میں بارش سے نظامِ زندگی درہم برہم",
    "ירושלים: הרכבת הקלה תגיע להר הצופים ב־2026",
    "תֵּל אָבִיב מְקַבֶּלֶת פַּארְק חָדָשׁ לְיַד הַיָּם",
    "חיפה: נמל המפרץ מדווח על שיא במשלוחים",
    "ייִדיש־טעאַטער אין ניו־יאָרק פֿײַערט 100 יאָר",
]
devanagari = [
    "हिन्दी समाचार: आज की ताज़ा ख़बरें और विश्लेषण",
    "दिल्ली में वायु गुणवत्ता फिर से ख़राब श्रेणी में",
    "मुंबई: लोकल ट्रेन सेवा बारिश के कारण प्रभावित",
    "क्षेत्रीय चुनाव में रिकॉर्ड मतदान दर्ज",
    "प्रधानमंत्री ने नई शिक्षा नीति की घोषणा की",
    "भारतीय क्रिकेट टीम ने श्रृंखला ३–१ से जीती",
    "वैज्ञानिकों ने चंद्रयान के नए चित्र जारी किए",
    "राष्ट्रपति भवन में स्वतंत्रता दिवस समारोह",
    "उत्तराखण्ड में भूस्खलन से सड़कें बंद",
    "पुणे: स्मार्ट सिटी परियोजना का दूसरा चरण शुरू",
    "नेपाल: काठमाडौंमा नयाँ सडक निर्माण सुरु",
    "मराठी साहित्य संमेलन यंदा नाशिकमध्ये",
    "संस्कृत विश्वविद्यालय में अन्तर्राष्ट्रीय सम्मेलन",
    "ज्ञान-विज्ञान मेले में छात्रों की भीड़",
    "त्रिपुरा और द्वारका में श्रद्धालुओं की भीड़",
    "अर्थव्यवस्था: मुद्रास्फीति ५.२% पर स्थिर",
]
devanagari_zwj = [
    "क्\u200dष और क्\u200cष: ZWJ और ZWNJ वाले संयुक्ताक्षर",
    "र्\u200dय लिखने का पुराना तरीका",
    "हिन्\u200dदी में अर्धाक्षर का प्रयोग",
    "श्\u200dरी गणेश मंदिर में उत्सव",
]
indic = [
    "কলকাতায় দুর্গাপূজার প্রস্তুতি শুরু হয়েছে",
    "ঢাকা: মেট্রোরেলের নতুন স্টেশন চালু",
    "சென்னையில் கனமழை: பள்ளிகளுக்கு விடுமுறை",
    "தமிழ்நாடு அரசு புதிய திட்டத்தை அறிவித்தது",
    "హైదరాబాద్‌లో ఐటీ ఉద్యోగాల వృద్ధి",
    "ಬೆಂಗಳೂರು ಮೆಟ್ರೋ ಹಳದಿ ಮಾರ್ಗ ಆರಂಭ",
    "തിരുവനന്തപുരത്ത് പുതിയ വിമാനത്താവള ടെർമിനൽ",
    "കേരളത്തിൽ ഓണാഘോഷം തുടങ്ങി",
    "અમદાવાદમાં પતંગોત્સવની તૈયારી",
    "ਅੰਮ੍ਰਿਤਸਰ ਵਿੱਚ ਗੁਰਪੁਰਬ ਦੀਆਂ ਰੌਣਕਾਂ",
    "ଓଡ଼ିଶାରେ ରଥଯାତ୍ରା ପାଇଁ ପ୍ରସ୍ତୁତି",
    "ශ්‍රී ලංකාවේ තේ අපනයනය ඉහළ යයි",
    "བོད་ཀྱི་ལོ་གསར་དུས་ཆེན",
]
thai_se_asian = [
    "ข่าวกำลังมาแรงวันนี้ น้ำท่วมหนักในภาคเหนือ",
    "กรุงเทพฯ เตรียมเปิดรถไฟฟ้าสายสีชมพูเต็มรูปแบบ",
    "นายกรัฐมนตรีประกาศมาตรการกระตุ้นเศรษฐกิจ",
    "ราคาน้ำมันปรับขึ้น ๕๐ สตางค์ต่อลิตร",
    "เชียงใหม่จัดงานลอยกระทงยิ่งใหญ่ที่สุดในรอบ ๑๐ ปี",
    "ทีมชาติไทยชนะเวียดนาม ๒–๑ ในนัดกระชับมิตร",
    "ภูเก็ตนักท่องเที่ยวต่างชาติเพิ่มขึ้นร้อยละ ๓๐",
    "ผู้ว่าฯ ลงพื้นที่ตรวจน้ำท่วมที่อยุธยา",
    "ນະຄອນຫຼວງວຽງຈັນ ເປີດຕະຫຼາດກາງຄືນໃໝ່",
    "ព្រះរាជាណាចក្រកម្ពុជា៖ ទេសចរណ៍អង្គរកើនឡើង",
    "ភ្នំពេញ រៀបចំពិធីបុណ្យអុំទូក",
    "မြန်မာနိုင်ငံ ရန်ကုန်မြို့တွင် မိုးသည်းထန်",
    "မန္တလေး ဈေးကွက်အသစ် ဖွင့်လှစ်",
    "ᬩᬮᬶ᭞ ᬧᬸᬭ ᬩᬾᬲᬓᬶᬄ",
]
cjk = [
    "日本語のニュース：東京で初雪を観測",
    "大阪・関西万博の来場者が二千万人を突破",
    "北京：新しい地下鉄路線が年内に開通へ",
    "台北101跨年煙火 今年長達三百秒",
    "香港天文台發出八號烈風信號",
    "上海证券交易所指数上涨1.2%",
    "한국어 뉴스: 서울 지하철 요금 인상",
    "부산국제영화제 개막… 관객 20만 명 예상",
    "제주도에 첫눈, 한라산 입산 통제",
    "ｶﾀｶﾅ半角とＡＢＣ全角が混在する見出し",
    "「令和」最後の大相撲九州場所が開幕",
    "漢字かな交じり文と English mixed 見出し",
    "\u1100\u1161\u11a8 jamo 조합 \u1112\u1161\u11ab\u1100\u1173\u11af",
    "〒100-0001 東京都千代田区の住所表記",
]
emoji_simple = [
    "🚀 Launch window opens for the lunar lander",
    "🌧️ Heavy rain expected across the north tonight",
    "📈 Markets rally as inflation cools",
    "🎉 City celebrates its 800th birthday",
    "⚽ Derby ends 2–2 after late equaliser",
    "🔥 Wildfire forces evacuations near the coast",
    "🐼 Zoo welcomes twin panda cubs",
    "🍜 Ramen prices climb for a second year",
    "🎬 Festival jury names its 🏆 winners",
    "😀😃😄😁 emoji-only reactions flood the thread",
    "🧪 Lab grows 🧠 organoids for drug tests",
    "🛰️ Satellite 📡 link restored after outage",
]
emoji_modifiers = [
    "Thumbs 👍🏽 up from the team for the new release",
    "👋🏿 Hello from the night shift",
    "👩🏻 and 👨🏾 lead the new research group",
    "🙏🏼 Thanks to everyone who volunteered",
    "💪🏽 Strong finish for the local marathon runners",
    "👏🏻👏🏼👏🏽👏🏾👏🏿 Standing ovation for the orchestra",
    "🧒🏽 Children’s book fair opens on Friday",
    "👌🏾 Council approves the bike lane plan",
    "🤝🏻 Trade deal signed after long talks",
    "✌🏼 Peace march draws thousands",
    "👶🏿 Hospital reports a baby boom",
    "🏃🏽 Runners take over the city centre",
]
emoji_zwj = [
    "Family 👨‍👩‍👧 trip ideas for the winter break",
    "👩‍💻 Developers gather for the annual hackathon",
    "❤️‍🔥 Love is in the air at the valentine market",
    "🏳️‍🌈 Pride parade route announced",
    "👩🏽‍💻 Coders from 40 countries meet in Lagos",
    "🧑‍🚀 Astronaut returns after six months",
    "👨‍👨‍👦‍👦 Adoption rules change this year",
    "🐻‍❄️ Polar bear sightings rise in the north",
    "🏴‍☠️ Piracy crackdown on streaming sites",
    "👩‍❤️‍👨 Couples renew vows on the beach",
    "🧑🏾‍🌾 Farmers protest low grain prices",
    "👁️‍🗨️ Eye in a speech bubble: what it means",
    "🐈‍⬛ Black cat adoption week at the shelter",
    "🧔🏻‍♂️ Beard contest returns to the fair",
]
flags = [
    "🇫🇷 France and 🇩🇪 Germany agree on a rail link",
    "🇯🇵🇰🇷 Summit in Seoul ends with a joint statement",
    "🇧🇷 Brazil beats 🇦🇷 Argentina on penalties",
    "🇺🇦 Kyiv reopens its airport to cargo flights",
    "🇮🇳 India’s monsoon arrives early in Kerala",
    "🇪🇺 EU ministers meet on energy prices",
    "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland votes on a new transport plan",
    "🇺🇳 UN assembly opens its 81st session",
    "🇳🇬🇬🇭🇸🇳 West African trade bloc expands",
    "🇨🇦 Canada’s wildfire season ends",
]
keycaps_vs16 = [
    "Keycap 1️⃣ 2️⃣ 3️⃣ countdown to the launch",
    "#️⃣ Hashtag campaign reaches a million posts",
    "I ❤️ NY returns to souvenir shops",
    "☀️ Sunny days ahead, ⛅ clouds by Friday",
    "✈️ Airport strike cancels 300 flights",
    "☎️ Emergency line outage lasted two hours",
    "✉️ Postal service raises stamp prices",
    "⚠️ Storm warning for the coast",
    "♻️ Recycling rate hits 60% in the capital",
    "☕️ Coffee prices at a 12-year high",
    "⭐️ Five-star review for the new bistro",
    "✔️ Deal done: the merger is approved",
    "❄️ First snow closes mountain passes",
    "☂️ Umbrella sales soar in a wet autumn",
    "⚡️ Power cuts hit three districts",
    "✍️ Authors sign a letter on AI training",
    "🅰️ Blood type A shortage at hospitals",
    "*️⃣ Star key bug fixed in phone update",
    "Ⓜ️ Metro line M closes for repairs",
    "⛓️ Supply chain pressure eases",
]
vs15 = [
    "Text-style ☀︎ sun and ❤︎ heart in a headline",
    "Watch ⌚︎ maker recalls a smartwatch",
    "Umbrella ☔︎ text presentation test",
    "Emoji 😀︎ with VS15 in text",
]
zwj_words = [
    "ZWJ in a\u200db words ca\u200dfé",
    "Zero\u200dwidth joiner inside an English word",
    "ب\u200dب عربي مع محرف الوصل",
    "ی\u200dک فارسی با اتصال",
    "Ma\u200dl\u200day\u200dalam-style join in Latin",
    "Fire\u200d🔥 joined to a word",
    "x\u200d👍 thumbs glued to a letter",
    "Soft hyphen in Donau\u00addampf\u00adschiff\u00adfahrt",
    "Zero\u200bwidth space and word\u2060joiner",
    "Non\u200cjoiner in ordinary text",
]
mixed = [
    "BTC 📈 +4.2% as 🇺🇸 CPI cools; ETH 📉 −1.1%",
    "東京 🗼 and Paris 🗼: twin towers exhibition",
    "मुंबई 🌧️ बारिश से 🚆 सेवाएँ प्रभावित",
    "กรุงเทพฯ 🌡️ ร้อนจัด ๔๐ องศา",
    "서울 🎤 K-pop 콘서트 매진",
    "القاهرة ☀️ حرارة قياسية ٤٥ درجة",
    "Zürich 🏦 Banken melden Rekordgewinne 💰",
    "Kyiv 🇺🇦 rebuilds 🏗️ its bridges",
    "👨‍👩‍👧‍👦 हिन्दी परिवार 👍🏽 खुश",
    "ข่าว 👍🏽 ดี ❤️ วันนี้",
    "Ελλάδα 🏛️ μουσεία δωρεάν την Κυριακή",
    "Москва ❄️ −25 °C, самый холодный день",
    "北京 😷 空气质量 ⚠️ 重度污染",
    "תל אביב 🏖️ חוף חדש נפתח",
    "Lagos 🌍 tech week: 👩🏾‍💻 founders raise $40m",
    "São Paulo ⚽️ clássico termina 1 × 1",
    "Café ☕️ crème 🥐 et croissant à 1,20 €",
    "Test 🧪 of 🫠 newer emoji and 🪿 goose",
]

groups = [
    ("latin", latin), ("combining", latin_combining), ("greek-cyrillic", greek_cyrillic),
    ("arabic-hebrew", arabic_hebrew), ("devanagari", devanagari), ("devanagari-zwj", devanagari_zwj),
    ("indic", indic), ("thai-sea", thai_se_asian), ("cjk", cjk), ("emoji", emoji_simple),
    ("emoji-modifier", emoji_modifiers), ("emoji-zwj", emoji_zwj), ("flag", flags),
    ("vs16", keycaps_vs16), ("vs15", vs15), ("zwj-text", zwj_words), ("mixed", mixed),
]

# Short forms (first words) of every string as well: the corpus then holds headlines that fit
# a tile whole and ones that are cut at the border, and the same clusters near the edge.
lines = []
for name, items in groups:
    for s in items:
        lines.append((name, s))
for name, items in groups:
    for s in items:
        words = s.split(" ")
        if len(words) > 3:
            lines.append((name, " ".join(words[:3])))
        # The same text shifted by one column, so each cluster meets the border at another offset.
        lines.append((name, "· " + s))

seen = set()
with open("width-corpus.txt", "w", encoding="utf-8") as f:
    for name, s in lines:
        if s in seen:
            continue
        seen.add(s)
        f.write(f"{name}\t{s}\n")
print(len(seen), "strings")
