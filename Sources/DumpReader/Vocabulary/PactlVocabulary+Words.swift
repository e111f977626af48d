// Generated from the msgstr strings of PulseAudio's po/*.po catalogues (releases 0.9.15 to 17.0
// and the development branch), lowercased. One entry a concept: `concept|translation|...`, where
// a line that starts with `|` continues the entry above. A translation that means two concepts of
// one table in different languages is left out, so that structure decides instead.

/// The value words `pactl` prints, in every language PulseAudio ships.
extension PactlVocabulary {
    /// Port type names (`Speaker`, `Lautsprecher`, `扬声器`...) by `DevicePortType` member; a word
    /// that two types share in some language goes to the likelier one.
    static let portTypeData = #"""
        analog|analog|analoga|analogico|analoginen|analogni|analogno|analogowe|analoog|analóg|analógico
        |analóxico|αναλογικό|аналагавы|аналогни|аналогов|аналоговий|аналоговый|аналогтық|אנלוגי|تناظري|एनालॉग
        |ອານາລັອກ (analog)|ანალოგური|類比|아날로그
        aux|aux|auxiliar|harici|külső|pomocniczy|pomoćni|zunanji vhod|βοηθ|доп.|помощен|помоћни|қосалқы|अतिरिक्त
        |დამატებით
        bluetooth|bludento|bluetooth|blutut|blåtand|блутут|בלוטות׳|بلوتوث|ब्लूटूथ|ບລູທູດ (bluetooth)|藍牙|블루투스
        car|araba|auto|automobil|automobile|automobilis|automóbil|autoturism|autó|avtomobil|aŭto|bil|car|carro
        |coche|cotxe|kar|kola|mobil|samochód|takeṛṛust|telefòn de veitura|voiture|αυτοκίνητο
        |автомобильдік динамик|автомобильный динамик|автомобільна система|аўтамабільная сістэма|кола|кола̀
        |מכונית|سيارة|कार|ລົດ|მანქანა|汽車|車|车内|자동차
        earpiece|auricolare|earpiece|fone de ouvido|hörlur|kulak içi kulaklık|kuuloke|ohrhörer|oortje
        |sluchátka do uší|slušalica|slušalica u uhu|slušalka (ušesna)|słuchawka douszna|øresnegl|øretelefon
        |ακουστικό|навушник|наушник|наушники-вкладыши|слушалица у уху|телефонна слушалка|құлаққап|אוזניה|इयरपीस
        |ყურსაცვამი|耳機|이어폰
        handset|ahize|aparelho|cască|handset|håndsæt|hörer|kézibeszélő|lur|luuri|monofone|slušalka
        |słuchawka telefonu|telefono ragelis|telefonrøyr|telefoon|слушалица|телефон тұтқасы|трубка|שפופרת
        |हैंडसेट|ຊຸດຫູຟັງມີໄມ|გარნიტურა|電話聽筒|핸드셋
        handsfree|ahizesiz|bez-ruku|freisprecheinrichtung|handenvrij|handfri|handsfree|hendsfri|håndfri
        |kihangosító|kit de mâini libere|kädet vapaana|laisvų rankų įranga|libermana|mains-libres|manos libres
        |mans liuras|mans lliures|mãos livres|prostoročno telefoniranje|sen mans|sistema mani-libere
        |zestaw głośnomówiący|ανοιχτής ακρόασης|пристрій гучного зв’язку|слушалка за свободни ръце|хендс-фри
        |хендсфри|хэндс-фры|דיבורית|دون استخدام اليدين|हस्तमुक्त|ແຮນສ໌ຟຣີ|ხელის გარეშე სამართავი|ハンズフリー|免手操作
        |免持裝置|핸즈프리
        hdmi|hdmi|хдми
        headphones|analoge kopfhörer|analoge koptelefoon|analoginen kuulokeliitäntä|analogne slušalice
        |analogová sluchátka|analóg fejhallgató|auriculares|auriculares analógicos|auriculars|auscultadores
        |ausinės|casque audio|casques analogiques|cuffie analogiche|căști auriculare|escotadors|fones de ouvido
        |fones de ouvido analógico|fones de ouvidos|headphone|headphones|hovedtelefoner|hovudtelefonar|hörlurar
        |kapaŭskultilo|kopfhörer|koptelefoons|kulaklık|kulaklıklar|oorfone|sluchátka|slušalice|slušalke
        |slúchadlá|słuchawki|ακουστικά|аналогне слушалице|аналоговые наушники|аналогові навушники|навушнікі
        |наушники|слушалки|құлаққаптар|אוזניות אנלוגיות|سماعة أذن|ऍनलॉग हेडफोन्स्|एनालॉग हेडफोन|हेडफोन
        |অ্যানালগ হেড-ফোন|ਐਨਾਲਾਗ ਹੈੱਡਫੋਨ|ઍનલૉગ હૅડફોનો|ଏନାଲୋଗ ହେଡ଼ଫୋନଗୁଡ଼ିକ|அனலாக் ஹெட்ஃபோன்கள்
        |ఎనలాగ్ హెడ్‌ఫోన్స్|ಅನಲಾಗ್ ಹೆಡ್‌ಫೋನ್‌ಗಳು|അനലോഗ് ഹെഡ്ഫോണുകള്‍|ຫູຟັງ|ყურსაცვამები|アナログヘッドフォン|模拟耳机|頭戴式耳機
        |類比頭戴式麥克風|헤드폰
        headset|auricular|auriculares con micro|auscultadores com microfone|ausinės su mikrofonu|casc àudio
        |casque|cuffie con microfono|căști auriculare cu microfon|fejhallgató|headset|hoofdset|hovudsett
        |kaptelefono|kopstuk|kuulokkeet|náhlavní souprava|slušalice s mikrofonom|slušalice sa mikrofonom
        |słuchawki z mikrofonem|гарнитура|гарнітура|слушалице са микрофоном|слушалки с микрофон
        |אוזניות עם מיקרופון|سماعة الرأس|हेडसेट|ເຮດເຊັດ|ყურსაცვამები & მიკროფონი|ヘッドセット|耳机|耳麥|헤드셋
        hifi|alta fidelidad|hi-fi|hifi|hoëtroustel|visoka vernost (hi-fi)|yüksek duyarlılık|yüksek kalite
        |υψηλή πιστότητα|висока верност (хи-фи)|هي في hifi|高保真|하이파이
        line|hat|jalur|lijn|line|linha|linie|linija|linijski|liniowy|linja|linje|liña|línea|ulaz|vonal|γραμμή
        |линеен|линейный вход/выход|линија|лінійний|сызықтық|קו|خطي|लाइन|ხაზი|線路|라인 입력
        mic|mic|microfon|microfone|micrófono|mik|mik.|mikro|mikrofon|mikrofonas|mikrofoni|mikrofono|μικρόφωνο
        |микрофон|мікрафон|мікрофон|מיקרופון|مايك|माइक|ໄມໂຄຣໂຟນ|მიკროფონის|麥克風
        network|ağ|aẓeṭṭa|hálózat|jaringan|mreža|nettverk|netværk|netwerk|network|netzwerk|nätverk|omrežje|red
        |rede|rete|reto|rețea|sieć|síť|tinklas|verkko|δίκτυο|желі|мережа|мрежа|сетка|сеть|רשת|شبكة|नेटवर्क
        |ເຄືອຂ່າຍ|ქსელი|網路|네트워크
        phone|foon|phone|puhelin|telefon|telefonas|telefone|telefono|telefòn|telefón|telepon|telèfon|teléfono
        |tiliɣri|téléphone|τηλέφωνο|телефон|тэлефон|טלפון|هاتف|फोन|ໂທລະສັບ|ტელეფონი|手機|电话|電話|전화기
        portable|bärbar|bærbar|draagbaar|hordozható|kannettava|portabel|portabile|portable|portatyvi sistema
        |portátil|prenosni|prenosné|prijenosnik|przenośne|přenosné zařízení|taşınabilir|tragbar|φορητό
        |партатыўная сістэма|портативна система|портативный динамик|портативті динамик|преносимо|преносни|נייד
        |متنقل|पोर्टेबल|ແບບພົກພາ|გადატანადი|ポータブル|便携式|可攜裝置|이동식
        radio|radijas|radio|radyo|ràdio|rádio|rádió|ραδιόφωνο|радио|радыё|радіо|רדיו|راديو|रेडिओ|रेडियो|রেডিও
        |ৰেডিঅ'|ਰੇਡੀਓ|રેડિયો|ରେଡିଓ|ரேடியோ|రేడియో|ರೇಡಿಯೊ|റേഡിയോ|ວິທະຍຸ|რადიო|ṛṛadyu|ラジオ|无线电|無線電|라디오
        spdif|s/pdif|spdif|с/пдиф
        speaker|altaveu|altavoz|alto-falante|altofalante|altoparlante|auto-falante|coluna|difuzor|garsiakalbis
        |głośnik|hangszóró|haut-parleur|hoparlör|högtalare|høgtalar|højttaler|kaiutin|lautsprecher|laŭtparolilo
        |luidspreker|nautparlaire|reproduktor|speaker|zvočnik|zvučnik|ηχείο|високоговорител|гучномовець|динамик
        |дынамік|звучник|רמקול|مكبر صوت|स्पीकर|ລຳໂພງ|დინამიკი|スピーカー|喇叭|扬声器|스피커
        tv|televizorius|televízió|telewizor|tv|τηλεόραση|тб|тв|טלוויזיה|ໂທລະພາບ|電視|텔레비전
        unknown|bilinmeyen|d arussin|desconhecida|desconhecido|desconocido|descoñecido|ismeretlen|necunoscut
        |nekonata|nepoznato|neznano|nežinoma|nieznany|okänd|onbekend|sconosciuto|tak dikenal|tuntematon|ukendt
        |ukjend|unbekannt|unknown|άγνωστο|белгісіз|невідомий|неизвестный|непознат|непознато|לא ידוע|غير معروف
        |अज्ञात|ບໍ່ຮູ້ຈັກ|უცნობი|未知|알 수 없음
        usb|usb|усб|يو إس بي
        video|görüntü|obraz|tavidyut|vaizdas|video|videó|vidèo|vidéo|vídeo|wideo|βίντεο|видео|відео|відэа|וידאו
        |فيديو|विडिओ|वीडियो|ভিডিঅ'|ভিডিও|ਵੀਡੀਓ|વિડિયો|ଭିଡ଼ିଓ|வீடியோ|వీడియో|ವೀಡಿಯೊ|വീഡിയോ|ວິດີໂອ|ვიდეო|ビデオ|視訊|视频
        |비디오
        """#

    /// Port availability phrases (`available`, `nicht verfügbar`, `disponibilidad desconocida`...).
    static let availabilityData = #"""
        available|beschikbaar|disponebla|disponibil|disponibile|disponible|disponível|dispoñíbel|dostupan/na
        |dostupno|dostupné|dostępne|elérhető|kullanılabilir|na voljo|prieinama|saatavilla|tersedia|tilgjengeleg
        |tilgængelig|tillgänglig|verfügbar|yella|διαθέσιμος|даступна|доступан/на|доступен|доступний|налични
        |қолжетімді|זמין|متوفر|उपलब्ध|ມີໃຫ້ໃຊ້|ხელმისაწვდომია|可用|사용 가능
        unavailable|ei käytettävissä|ikke tilgængelig|ikkje tilgjengeleg|indisponível|inte tillgänglig
        |kullanılabilir değil|nedisponebla|nedostupno|nem érhető el|není dostupné|neprieinama|ni na voljo
        |nicht verfügbar|niedostępne|niet beschikbaar|nije dostupan|no disponible|non disponibile|non dispoñíbel
        |nu este disponibil|não disponível|tidak tersedia|μη διαθέσιμος|не доступен|не е налично|недаступна
        |недоступен|недоступний|није доступан|қолжетімді емес|לא זמין|غير متوفر|अनुपलब्ध|ບໍ່ມີໃຫ້ໃຊ້
        |მიუწვდომელია|無法使用|사용할 수 없음
        unknown|beschikbaarheid onbekend|disponibilidad desconocida|disponibilidade desconhecida
        |disponibilitate necunoscută|disponibilità sconosciuta|dispoñibilidade descoñecida
        |dostupnost je nepoznata|dostupnost nepoznata|dostupnost neznámá|dostępność jest nieznana
        |elérhetőség ismeretlen|ketersediaan tak diketahui|kullanılabilirlik bilinmiyor|neznana razpoložljivost
        |prieinamumas nežinomas|saatavuus tuntematon|tilgængelighed ukendt|tillgänglighet okänd
        |ukjend tilgjengestatus|verfügbarkeit unbekannt|άγνωστη διαθεσιμότητα|даступнасць невядомая
        |доступност је непозната|доступность неясна|наличност неизвестна|невідома доступність
        |қолжетімділігі белгісіз|זמינות לא ידועה|उपलब्धता अज्ञात|ບໍ່ຮູ້ສະຖານະການມີຢູ່|ხელმისაწვდომობა უცნობია
        |可用性未知|가용성을 알 수 없음
        """#

    /// `yes` and `no` as `pactl` localises them (mute, profile availability).
    static let yesNoData = #"""
        no|ei|hayır|ne|nee|nei|nein|nej|nem|nie|no|non|nu|não|tidak|uhu|όχι|жоқ|не|нет|ні|לא|لا|नहीं|ບໍ່|არა|いいえ
        |否|아니요
        yes|ano|da|evet|igen|ih|ja|jes|kyllä|oui|si|sim|sì|sí|taip|tak|ya|áno|òc|ναι|да|иә|так|כן|نعم|हां|ແມ່ນ
        |დიახ|はい|是|예
        """#

    /// `n/a` as `pactl` localises it (a source that monitors no sink, a card without owner module).
    static let notApplicableData = #"""
        n/a|ej tillämpligt|ismeretlen|k. a.|n.v.t.|n/d|nedostupno|nedostupné|nepoznato|ni na voljo|nic
        |nie dotyczy|nu este disponibil|nėra|t/t|yok|μη διαθέσιμο|н/д|непознато|няма|қ/ж|לא זמין|غير متاح
        |ਉਪਲੱਬਧ ਨਹੀਂ|వర్తించదు|ಅನ್ವಯಿಸುವುದಿಲ್ಲ|ບໍ່ມີ|ა/მ|해당 없음
        """#
}
